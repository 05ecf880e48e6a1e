// The sandbox off the bot's thread: each program runs in a worker of a pool, so what it does costs
// that worker only, and its host calls are bounded.
import { describe, expect, it } from 'bun:test'
import { type ExecuteResult, makeAgentRuntime } from '../../agent/index.ts'
import { SandboxPool } from '../../agent/pool/pool.ts'
import { failed, notesModule } from './notes.ts'

/** Which comes first: the execute's answer, or a timer on the bot's thread 50 ms in. */
async function firstOf(execute: Promise<ExecuteResult>): Promise<'execute' | 'bot'> {
  return Promise.race([execute.then(() => 'execute' as const), Bun.sleep(50).then(() => 'bot' as const)])
}

const SPINNING = {
  'a busy loop': 'while (true) {}',
  'a loop awaiting nothing': 'while (true) { await 0 }',
  'a catastrophic regex': 'return /^(a+)+$/.test("a".repeat(40) + "b")',
}

describe('a program that never yields costs its worker only', () => {
  for (const [what, program] of Object.entries(SPINNING)) {
    it(`stops ${what} at its deadline while the bot's thread keeps running`, async () => {
      const runtime = makeAgentRuntime({ execution: { timeoutMs: 1_500 } })
      const execute = runtime.execute({ program })
      // Inline, the timer could not fire before the program gave the thread back.
      expect(await firstOf(execute)).toBe('bot')
      expect(failed(await execute).failure).toEqual({ kind: 'DeadlineExceeded', timeoutMs: 1_500 })
      expect(await runtime.execute({ program: 'return 2' })).toMatchObject({ ok: true, value: 2 })
    })
  }

  it('stops a memory bomb at the sandbox limit, and the bot’s memory stays bounded', async () => {
    const runtime = makeAgentRuntime({ execution: { timeoutMs: 10_000 } })
    const before = process.memoryUsage().rss
    for (let round = 0; round < 3; round++) {
      const result = failed(
        await runtime.execute({
          program: 'const hoard = []; while (true) hoard.push(new Array(1 << 20).fill(hoard.length))',
        }),
      )
      expect(result.failure.kind).toBe('GuestException')
    }
    // Each program is held to 32 MiB inside its worker: three of them leave far less than this behind.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024)
    expect(await runtime.execute({ program: 'return 3' })).toMatchObject({ ok: true, value: 3 })
  })

  it('ends a worker that ignores its stop, says the stop was not acknowledged, and replaces it (“Do not report that work as stopped”; “The concrete sandbox and broker decide how backing work is stopped”; “a wall-time timeout does not prove isolate termination”)', async () => {
    const pool = new SandboxPool({ size: 1, workerUrl: new URL('./workers/deaf.ts', import.meta.url) })
    const runtime = makeAgentRuntime({ execution: { timeoutMs: 300, cancelGraceMs: 50, pool } })
    const result = failed(await runtime.execute({ program: 'return 1' }))
    expect(result.failure).toEqual({ kind: 'DeadlineExceeded', timeoutMs: 300 })
    expect(result.acknowledged).toBe(false)
    // The deaf worker is gone; one fresh worker stands in its place.
    expect(pool.workers).toBe(1)
    await pool.close()
    expect(pool.workers).toBe(0)
  })
})

describe('host calls are bounded per execute', () => {
  it('stops a flood of calls at the in-flight bound, before the bot runs more than that many', async () => {
    const { module, contexts } = notesModule()
    const runtime = makeAgentRuntime({ modules: [module] })
    const result = failed(
      await runtime.execute({
        program:
          'const ps = []; for (let i = 0; i < 1e6; i++) ps.push(env.notes.list({})); return (await Promise.all(ps)).length',
      }),
    )
    expect(result.failure).toEqual({ kind: 'HostCallLimit', bound: 'in-flight', limit: 32 })
    expect(contexts.length).toBeLessThanOrEqual(32)
    expect(result.message).toContain('more than 32 operation calls waiting at once')
  })

  it('stops a program at its total bound, however patiently it awaits each call', async () => {
    const { module, contexts } = notesModule()
    const runtime = makeAgentRuntime({ modules: [module], execution: { limits: { hostCalls: 40 } } })
    const result = failed(
      await runtime.execute({ program: 'for (let i = 0; i < 1e6; i++) await env.notes.list({})' }),
    )
    expect(result.failure).toEqual({ kind: 'HostCallLimit', bound: 'total', limit: 40 })
    expect(contexts.length).toBe(40)
    expect(result.message).toContain('called more than 40 operations in one execute')
  })

  it('lets a program make as many calls as the bounds allow', async () => {
    const { module, contexts } = notesModule()
    const runtime = makeAgentRuntime({ modules: [module], execution: { limits: { hostCalls: 40 } } })
    const result = await runtime.execute({
      program: `let n = 0
        for (let i = 0; i < 8; i++) n += (await Promise.all(Array.from({ length: 5 }, () => env.notes.list({})))).length
        return n`,
    })
    expect(result).toMatchObject({ ok: true, value: 40 })
    expect(contexts.length).toBe(40)
  })
})

describe('a worker that breaks the protocol', () => {
  it('is a lost transport when it exits mid-program, and the next worker runs (“lost transport”)', async () => {
    const pool = new SandboxPool({ size: 1, workerUrl: new URL('./workers/exiting.ts', import.meta.url) })
    const runtime = makeAgentRuntime({ execution: { pool } })
    expect(failed(await runtime.execute({ program: 'return 1' })).failure).toEqual({ kind: 'TransportLost' })
    expect(pool.workers).toBe(1)
    await pool.close()
  })

  it('is a bad response when it answers outside the protocol (“bad responses”)', async () => {
    const pool = new SandboxPool({ size: 1, workerUrl: new URL('./workers/garbling.ts', import.meta.url) })
    const reports: unknown[] = []
    const runtime = makeAgentRuntime({
      execution: { pool },
      onSandboxFailure: (report) => reports.push(report),
    })
    const result = failed(await runtime.execute({ program: 'return 1' }))
    expect(result.failure).toEqual({ kind: 'BadResponse' })
    // What it sent is the operator's evidence, not the model's.
    expect(JSON.stringify(reports)).toContain('seven')
    expect(result.message).not.toContain('seven')
    await pool.close()
  })
})
