// The agent runtime's figures: an execute round trip with a fresh QuickJS sandbox each call (in a
// worker of the sandbox pool), what a bare sandbox and a new worker cost to start, and how many
// executes a full pool completes per second.
import { availableParallelism } from 'node:os'
import { Schema } from 'effect'
import { z } from 'zod'
import { defineModule, makeAgentRuntime } from '../core/agent/index.ts'
import { SandboxPool } from '../core/agent/pool/pool.ts'
import { quickJs } from '../core/agent/sandbox.ts'

export interface AgentFigures {
  readonly calls: number
  readonly moduleLoadMs: number
  readonly sandboxStartMs: { readonly p50: number; readonly p99: number }
  /** A first execute on a pool with no worker yet: the worker's start and QuickJS's compile in it. */
  readonly workerStartMs: number
  readonly roundTripMs: { readonly p50: number; readonly p99: number; readonly mean: number }
  readonly capacity: number
  readonly perSecondAtCapacity: number
  /** The same round trip through an operation declared with an Effect Schema (decode, encode). */
  readonly effectRoundTripMs: { readonly p50: number; readonly p99: number }
}

const PROGRAM = 'return await env.notes.count({})'
const EFFECT_PROGRAM = `return await env.notes.shift({ at: '2026-01-01T00:00:00.000Z', by: '1000' })`

export async function agentPath(calls: number): Promise<AgentFigures> {
  const loadStart = performance.now()
  const module = await quickJs()
  const moduleLoadMs = performance.now() - loadStart

  const starts: number[] = []
  for (let i = 0; i < Math.min(calls, 500); i++) {
    const started = performance.now()
    const runtime = module.newRuntime()
    const context = runtime.newContext()
    starts.push(performance.now() - started)
    context.dispose()
    runtime.dispose()
  }

  const notes = defineModule({
    id: 'notes',
    operations: {
      count: { access: 'read', input: z.object({}), output: z.number(), run: () => 3 },
      shift: {
        access: 'read',
        input: Schema.Struct({ at: Schema.Date, by: Schema.NumberFromString }),
        output: Schema.Struct({ at: Schema.Date, by: Schema.NumberFromString }),
        run: ({ at, by }) => ({ at: new Date(at.getTime() + by), by }),
      },
    },
  })
  const capacity = Math.min(32, Math.max(2, availableParallelism()))
  const pool = new SandboxPool({ size: capacity })
  const runtime = makeAgentRuntime({ modules: [notes], execution: { sandboxCapacity: capacity, pool } })
  const coldStart = performance.now()
  await runtime.execute({ program: PROGRAM })
  const workerStartMs = performance.now() - coldStart
  for (let i = 0; i < 20; i++) await runtime.execute({ program: PROGRAM })
  const trips: number[] = []
  for (let i = 0; i < calls; i++) {
    const started = performance.now()
    const result = await runtime.execute({ program: PROGRAM })
    trips.push(performance.now() - started)
    if (!result.ok) throw new Error(`bench execute failed: ${result.message}`)
  }

  const effectTrips: number[] = []
  for (let i = 0; i < calls; i++) {
    const started = performance.now()
    const result = await runtime.execute({ program: EFFECT_PROGRAM })
    effectTrips.push(performance.now() - started)
    if (!result.ok) throw new Error(`bench execute failed: ${result.message}`)
  }

  const wallStart = performance.now()
  let left = calls
  const worker = async () => {
    while (left-- > 0) await runtime.execute({ program: PROGRAM })
  }
  await Promise.all(Array.from({ length: capacity }, worker))
  const perSecondAtCapacity = calls / ((performance.now() - wallStart) / 1000)
  await runtime.close()
  await pool.close()
  return {
    calls,
    moduleLoadMs,
    sandboxStartMs: { p50: percentile(starts, 0.5), p99: percentile(starts, 0.99) },
    workerStartMs,
    roundTripMs: {
      p50: percentile(trips, 0.5),
      p99: percentile(trips, 0.99),
      mean: trips.reduce((sum, ms) => sum + ms, 0) / trips.length,
    },
    capacity,
    perSecondAtCapacity,
    effectRoundTripMs: { p50: percentile(effectTrips, 0.5), p99: percentile(effectTrips, 0.99) },
  }
}

function percentile(samples: readonly number[], at: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(at * sorted.length))] ?? 0
}
