import { describe, expect, it } from 'bun:test'
import { z } from 'zod'
import { type CapabilitySource, defineModule, LeaseKeeper, makeAgentRuntime } from '../../agent/index.ts'

/** A source whose every snapshot exposes its revision, and which records acquire/release. */
function countingSource(id: string, log: string[], options: { failOn?: number } = {}) {
  let revision = 0
  let invalidate: (() => void) | undefined
  const source: CapabilitySource = {
    id,
    async acquire(markStale) {
      revision++
      if (revision === options.failOn) throw new Error(`${id} is unreachable`)
      const seen = revision
      invalidate = markStale
      log.push(`acquire ${id}#${seen}`)
      const module = defineModule({
        id,
        operations: {
          revision: { access: 'read', input: z.object({}), output: z.number(), run: () => seen },
        },
      })
      return {
        modules: [module],
        release: async () => {
          log.push(`release ${id}#${seen}`)
        },
      }
    },
  }
  return { source, invalidate: () => invalidate?.() }
}

describe('sources and leases', () => {
  it('keeps a snapshot until invalidated; the next lease sees a new graph, the open one keeps its own (“Use sources when a host must acquire a current”; “Its invalidate() callback marks that snapshot stale”; “The next lease builds a new coherent graph”; “An existing lease keeps its captured snapshot”)', async () => {
    const log: string[] = []
    const { source, invalidate } = countingSource('computer', log)
    const keeper = new LeaseKeeper([], [source])
    const first = await keeper.lease()
    const again = await keeper.lease()
    expect(log).toEqual(['acquire computer#1'])
    invalidate()
    const fresh = await keeper.lease()
    expect(log).toEqual(['acquire computer#1', 'acquire computer#2'])
    const revisionOf = (lease: typeof first) =>
      lease.leaves.get('computer.revision')!.operation.run({}, { signal: new AbortController().signal })
    expect(await revisionOf(first)).toBe(1)
    expect(await revisionOf(fresh)).toBe(2)
    await first.release()
    await again.release()
    // The stale snapshot goes once its last lease lets go.
    expect(log).toEqual(['acquire computer#1', 'acquire computer#2', 'release computer#1'])
    await fresh.release()
    await keeper.close()
    expect(log.at(-1)).toBe('release computer#2')
  })

  it('unwinds a partial acquisition in reverse order (“A source returns its bounded snapshot and an awaited release function”; “Partial acquisition unwinds already acquired sources in reverse order”)', async () => {
    const log: string[] = []
    const a = countingSource('a', log)
    const b = countingSource('b', log)
    const c = countingSource('c', log, { failOn: 1 })
    // c fails its first acquisition only: a, b acquired before it must be let go, b first.
    const keeper = new LeaseKeeper([], [a.source, b.source, c.source])
    await expect(keeper.lease()).rejects.toThrow('c is unreachable')
    expect(log).toEqual(['acquire a#1', 'acquire b#1', 'release b#1', 'release a#1'])
    // The next lease acquires afresh rather than reuse what was let go.
    const lease = await keeper.lease()
    expect(log.slice(4)).toEqual(['acquire a#2', 'acquire b#2', 'acquire c#2'])
    await lease.release()
    await keeper.close()
  })

  it('runs each execute on a lease it releases, and reports a failing source as a failed capability (“acquires a coherent capability snapshot and releases it when the run ends”; “Mycelium owns the scoped resources it acquires”)', async () => {
    const log: string[] = []
    const { source, invalidate } = countingSource('computer', log)
    const runtime = makeAgentRuntime({ sources: [source] })
    expect(await runtime.execute({ program: 'return await env.computer.revision({})' })).toMatchObject({
      value: 1,
    })
    invalidate()
    expect(await runtime.execute({ program: 'return await env.computer.revision({})' })).toMatchObject({
      value: 2,
    })
    await runtime.close()
    expect(log).toEqual([
      'acquire computer#1',
      'acquire computer#2',
      'release computer#1',
      'release computer#2',
    ])
    const broken = makeAgentRuntime({ sources: [countingSource('down', [], { failOn: 1 }).source] })
    expect(await broken.execute({ program: 'return 1' })).toMatchObject({
      ok: false,
      failure: { kind: 'CapabilityFailed', module: 'sources', operation: 'acquire' },
    })
  })
})
