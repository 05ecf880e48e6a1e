import { describe, expect, it } from 'bun:test'
import { z } from 'zod'
import { SandboxAdmission } from '../../agent/admission.ts'
import { defineModule, makeAgentRuntime, normalizeSandboxAdmissionPolicy } from '../../agent/index.ts'
import { type PoolRun, type RunningSandbox, SandboxPool } from '../../agent/pool/pool.ts'
import { gate } from './notes.ts'

describe('normalizeSandboxAdmissionPolicy', () => {
  it('derives capacity from the cores, clamped to 2..32, 2 without a usable count (“An omitted capacity derives from available cores, clamped to 2..32”; “It does not reserve a slot or start a sandbox”)', () => {
    expect(normalizeSandboxAdmissionPolicy({}, 1).capacity).toBe(2)
    expect(normalizeSandboxAdmissionPolicy({}, 8).capacity).toBe(8)
    expect(normalizeSandboxAdmissionPolicy({}, 64).capacity).toBe(32)
    expect(normalizeSandboxAdmissionPolicy({}).capacity).toBe(2)
    expect(normalizeSandboxAdmissionPolicy({}, Number.NaN).capacity).toBe(2)
    // Facts only: nothing in the answer could hold a slot or a sandbox.
    expect(normalizeSandboxAdmissionPolicy({}, 8)).toEqual({ capacity: 8, admissionWaitMs: 5_000 })
  })

  it('takes an explicit capacity as given, above 32 too, and waits 5,000 ms unless told (“default 5,000”; “Explicit valid capacity overrides bypass observation and are not clamped, including values above 32”)', () => {
    expect(normalizeSandboxAdmissionPolicy({ sandboxCapacity: 1 }, 16)).toEqual({
      capacity: 1,
      admissionWaitMs: 5_000,
    })
    expect(normalizeSandboxAdmissionPolicy({ sandboxCapacity: 100, admissionWaitMs: 900_000 }, 4)).toEqual({
      capacity: 100,
      admissionWaitMs: 900_000,
    })
    expect(normalizeSandboxAdmissionPolicy({ admissionWaitMs: 1 }).admissionWaitMs).toBe(1)
  })

  it('refuses a capacity that is not a positive safe integer and a wait outside 1..900,000 (“sandboxCapacity (a positive safe integer) and admissionWaitMs (an integer from 1 to 900,000 milliseconds”; “normalizeSandboxAdmissionPolicy(options, availableCores?) validates and resolves these host facts”; “Both public runtime facades validate and capture the policy when the runtime opens”)', () => {
    for (const sandboxCapacity of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) {
      expect(() => normalizeSandboxAdmissionPolicy({ sandboxCapacity })).toThrow(/sandboxCapacity/)
    }
    for (const admissionWaitMs of [0, 900_001, 2.5, -5]) {
      expect(() => normalizeSandboxAdmissionPolicy({ admissionWaitMs })).toThrow(/admissionWaitMs/)
    }
    expect(() => makeAgentRuntime({ execution: { admissionWaitMs: 0 } })).toThrow(/admissionWaitMs/)
  })
})

const pick = <T extends object, K extends keyof T>(from: T, key: K): Partial<Pick<T, K>> =>
  from[key] === undefined ? {} : ({ [key]: from[key] } as Partial<Pick<T, K>>)

/** A runtime of one slot whose `hold.wait` keeps it busy until the test opens the gate. */
function saturated(execution: { admissionWaitMs?: number; timeoutMs?: number } = {}) {
  const held = gate()
  const started: string[] = []
  const hold = defineModule({
    id: 'hold',
    operations: {
      wait: {
        access: 'read',
        input: z.object({ who: z.string() }),
        output: z.null(),
        run: async ({ who }) => {
          started.push(who)
          await held.promise
          return null
        },
      },
    },
  })
  const admission = new SandboxAdmission(
    normalizeSandboxAdmissionPolicy({ sandboxCapacity: 1, ...pick(execution, 'admissionWaitMs') }),
  )
  const runtime = makeAgentRuntime({ modules: [hold], execution: { ...execution, admission } })
  // The slot is taken through the same admission by a call with no short deadline of its own: on a
  // loaded machine a 30 ms one could expire before it started, and the test would wait forever.
  const holder = makeAgentRuntime({ modules: [hold], execution: { admission } })
  const occupy = async () => {
    const first = holder.execute({ program: `return await env.hold.wait({ who: 'first' })` })
    while (!started.includes('first')) await Bun.sleep(2)
    // Wrapped: an async function returning the promise itself would wait for it.
    return { first }
  }
  return { runtime, held, started, occupy }
}

describe('admission', () => {
  it('answers SandboxBusy when the admission wait expires, without running the program (“Admission-wait expiry yields SandboxBusy”) (“No automatic replay is authorized”)', async () => {
    const { runtime, held, started, occupy } = saturated({ admissionWaitMs: 30 })
    const { first } = await occupy()
    const busy = await runtime.execute({ program: `return await env.hold.wait({ who: 'second' })` })
    expect(busy.ok).toBe(false)
    if (busy.ok) return
    expect(busy.failure).toMatchObject({ kind: 'SandboxBusy', code: 'sandbox-busy', capacity: 1 })
    expect((busy.failure as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(0)
    expect(busy.message).toContain('[sandbox-busy]')
    held.open()
    expect(await first).toMatchObject({ ok: true, value: null })
    expect(started).toEqual(['first'])
  })

  it('answers DeadlineExceeded when the invocation deadline comes first, or at the same time (“the earlier of the admission-wait deadline and the original invocation deadline”; “Invocation-deadline expiry remains DeadlineExceeded, including when both deadlines coincide”)', async () => {
    const { runtime, held, occupy } = saturated({ admissionWaitMs: 5_000, timeoutMs: 30 })
    const { first } = await occupy()
    const late = await runtime.execute({ program: 'return 1' })
    expect(late).toMatchObject({ ok: false, failure: { kind: 'DeadlineExceeded', timeoutMs: 30 } })
    held.open()
    await first
    const tie = saturated({ admissionWaitMs: 40, timeoutMs: 40 })
    const { first: occupying } = await tie.occupy()
    const tied = await tie.runtime.execute({ program: 'return 1' })
    expect(tied).toMatchObject({ ok: false, failure: { kind: 'DeadlineExceeded' } })
    tie.held.open()
    await occupying
  })

  it('lets a cancelled waiter go, and never starts it later (“no expired/cancelled waiter may start later”) (“Caller cancellation remains Cancelled”)', async () => {
    const { runtime, held, started, occupy } = saturated()
    const { first } = await occupy()
    const caller = new AbortController()
    const waiting = runtime.execute({
      program: `return await env.hold.wait({ who: 'waiter' })`,
      signal: caller.signal,
    })
    caller.abort()
    expect(await waiting).toMatchObject({ ok: false, failure: { kind: 'Cancelled', by: 'caller' } })
    held.open()
    await first
    const after = await runtime.execute({ program: `return await env.hold.wait({ who: 'after' })` })
    expect(after.ok).toBe(true)
    expect(started).toEqual(['first', 'after'])
  })

  it('keeps the deadline a queued call was given when it was made (“Queueing does not restart the execution timeout”)', async () => {
    const held = gate()
    let holding = false
    const hold = defineModule({
      id: 'hold',
      operations: {
        wait: {
          access: 'read',
          input: z.object({}),
          output: z.null(),
          run: async () => {
            holding = true
            await held.promise
            return null
          },
        },
      },
    })
    const deadlines: number[] = []
    class WatchedPool extends SandboxPool {
      override start(run: PoolRun): RunningSandbox {
        deadlines.push(run.deadlineAt)
        return super.start(run)
      }
    }
    const admission = new SandboxAdmission({ capacity: 1, admissionWaitMs: 60_000 })
    const holder = makeAgentRuntime({ modules: [hold], execution: { admission } })
    const pool = new WatchedPool({ size: 1 })
    const timeoutMs = 60_000
    const waiter = makeAgentRuntime({ execution: { admission, pool, timeoutMs } })
    const first = holder.execute({ program: 'return await env.hold.wait({})' })
    while (!holding) await Bun.sleep(2)
    const calledAt = Date.now()
    const second = waiter.execute({ program: 'return 1' })
    // It waits in the queue a while before the slot frees.
    await Bun.sleep(50)
    expect(deadlines).toEqual([])
    held.open()
    await first
    expect(await second).toMatchObject({ ok: true, value: 1 })
    // Counted from the call, not from its admission at least 50 ms later. The call reads the clock
    // itself, a tick after calledAt at most: half the wait is room enough for that, not for admission.
    expect(deadlines).toHaveLength(1)
    expect(deadlines[0]!).toBeGreaterThanOrEqual(calledAt + timeoutMs)
    expect(deadlines[0]!).toBeLessThan(calledAt + timeoutMs + 25)
    await pool.close()
  })

  it('hands a freed slot to the next waiter (“A full pool waits until a slot opens”; “Queued work is registered before waiting”)', async () => {
    const { runtime, held, started, occupy } = saturated()
    const { first } = await occupy()
    const second = runtime.execute({ program: `return await env.hold.wait({ who: 'second' })` })
    await Bun.sleep(5)
    expect(started).toEqual(['first'])
    held.open()
    expect(await first).toMatchObject({ ok: true })
    expect(await second).toMatchObject({ ok: true })
    expect(started).toEqual(['first', 'second'])
    expect(runtime.admission.running).toBe(0)
  })

  it('lets a lease be released and the runtime closed while a call waits for a slot (“Release each lease and close the runtime”; “Waiting does not hold the lifecycle/revision gate needed for release or close”)', async () => {
    const { runtime, held, started, occupy } = saturated({ admissionWaitMs: 5_000 })
    const { first } = await occupy()
    const waiting = runtime.execute({ program: `return await env.hold.wait({ who: 'second' })` })
    await Bun.sleep(5)
    // The waiter holds no gate that a release or a close needs.
    const lease = await runtime.lease()
    await lease.release()
    await runtime.close()
    held.open()
    expect(await first).toMatchObject({ ok: true })
    // Closed meanwhile: it never starts, and says why as a failed capability.
    expect(await waiting).toMatchObject({ ok: false, failure: { kind: 'CapabilityFailed' } })
    expect(started).toEqual(['first'])
  })
})
