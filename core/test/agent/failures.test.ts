// The typed failure channel read by type: which failure an execute reports never depends on the
// words of an error, only on what raised it.
import { describe, expect, it } from 'bun:test'
import { SandboxFailureError } from '../../agent/failure.ts'
import { makeAgentRuntime, type SandboxFailureReport } from '../../agent/index.ts'
import { type PoolRun, type RunningSandbox, SandboxPool } from '../../agent/pool/pool.ts'
import { brokenModule, failed } from './notes.ts'

const broken = brokenModule()

/** A pool whose sandbox fails with whatever it is given: a foreign adapter, for the classifier. */
class ForeignPool extends SandboxPool {
  constructor(readonly fails: () => unknown) {
    super({ size: 1 })
  }
  override start(_run: PoolRun): RunningSandbox {
    return {
      result: Promise.reject(this.fails()),
      settled: Promise.resolve(),
      acknowledged: Promise.resolve(true),
    }
  }
}

describe('a failed capability, by the error the host raised', () => {
  it('is CapabilityFailed when that very error escapes, rethrown or not (“failed capabilities”)', async () => {
    const reports: SandboxFailureReport[] = []
    const runtime = makeAgentRuntime({
      modules: [broken],
      onSandboxFailure: (report) => reports.push(report),
    })
    for (const program of [
      'await env.broken.explode({})',
      'try { await env.broken.explode({}) } catch (e) { throw e }',
      'await Promise.all([env.broken.explode({})])',
    ]) {
      expect(failed(await runtime.execute({ program })).failure).toEqual({
        kind: 'CapabilityFailed',
        module: 'broken',
        operation: 'explode',
      })
    }
    // The operator's evidence names the host's own error; the model's message does not.
    expect(JSON.stringify(reports.at(-1)!.evidence)).toContain('faults')
  })

  it('is a guest exception when the guest makes an error that only looks like one', async () => {
    const runtime = makeAgentRuntime({ modules: [broken] })
    const forged = failed(
      await runtime.execute({
        program: `try { await env.broken.explode({}) } catch (real) {
          const e = new Error(real.message); e.name = real.name; throw e }`,
      }),
    )
    expect(forged.failure).toEqual({
      kind: 'GuestException',
      detail: 'CapabilityFailed: broken.explode failed on the host side',
    })
    const prose = failed(
      await runtime.execute({
        program: `try { await env.broken.explode({}) } catch {}
          throw new Error('CapabilityFailed: broken.explode')`,
      }),
    )
    expect(prose.failure.kind).toBe('GuestException')
  })
})

describe('foreign failures', () => {
  it('make a foreign throw Unknown (“A foreign throw becomes Unknown”)', async () => {
    const runtime = makeAgentRuntime({
      execution: { pool: new ForeignPool(() => new TypeError('undefined is not a function')) },
    })
    const result = failed(await runtime.execute({ program: 'return 1' }))
    expect(result.failure).toEqual({ kind: 'Unknown' })
    expect(result.message).not.toContain('undefined is not a function')
  })

  it('keep unrelated foreign failures Unknown whatever they say, are named or wrap (“do not classify diagnostic prose, unwrap arbitrary cause chains, or mislabel an arbitrary adapter AbortError as caller-authorized cancellation”)', async () => {
    const abort = Object.assign(new Error('The operation was aborted'), { name: 'AbortError' })
    const busy = new SandboxFailureError({
      kind: 'SandboxBusy',
      code: 'sandbox-busy',
      capacity: 1,
      waitedMs: 1,
    })
    const lookalikes = [
      // A typed failure somewhere down a foreign error's cause chain is not this failure.
      () => new Error('adapter failed', { cause: busy }),
      () => new AggregateError([busy], 'several'),
      () => new Error('CapabilityFailed: broken.explode'),
      () => new Error('SandboxBusy: sandbox-busy'),
      () => abort,
      () => new DOMException('stopped', 'AbortError'),
      () => 'DeadlineExceeded',
    ]
    for (const fails of lookalikes) {
      const runtime = makeAgentRuntime({ execution: { pool: new ForeignPool(fails) } })
      expect(failed(await runtime.execute({ program: 'return 1' })).failure).toEqual({ kind: 'Unknown' })
    }
  })

  it('make a pool that throws on start Unknown, and a closed pool a lost transport', async () => {
    class ThrowingPool extends SandboxPool {
      override start(): RunningSandbox {
        throw new RangeError('no worker')
      }
    }
    const throwing = makeAgentRuntime({ execution: { pool: new ThrowingPool({ size: 1 }) } })
    expect(failed(await throwing.execute({ program: 'return 1' })).failure).toEqual({ kind: 'Unknown' })
    const pool = new SandboxPool({ size: 1 })
    await pool.close()
    const closed = makeAgentRuntime({ execution: { pool } })
    expect(failed(await closed.execute({ program: 'return 1' })).failure).toEqual({ kind: 'TransportLost' })
  })
})
