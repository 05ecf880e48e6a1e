import { afterEach, describe, expect, it } from 'bun:test'
import { hostKeeper } from '../../hosts/keeper.ts'
import { SpareWorkers } from '../../hosts/spares.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { answered, FAULT_CONFIG, faultyEnzyme, PONG } from './fault-spores.ts'

// Germination starts a host worker for each spore that will run in one before it reads their
// manifests; each host takes one, and those no spore took are ended.

let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

/** Resolves once `worker` has ended. */
function ended(worker: Worker): Promise<void> {
  return new Promise((resolve) => worker.addEventListener('close', () => resolve()))
}

describe('workers started ahead', () => {
  it('are handed out one each, and those left are ended when released', async () => {
    const spares = new SpareWorkers()
    await spares.start(3)
    expect(spares.size).toBe(3)
    const taken = await spares.take()
    expect(spares.size).toBe(2)
    spares.release()
    expect(spares.size).toBe(0)
    // The one taken is its host's now: a release does not end it.
    const answer = new Promise((resolve) => taken.addEventListener('message', resolve, { once: true }))
    const { port2 } = new MessageChannel()
    taken.postMessage(
      { t: 'init', port: port2, flags: new Int32Array(new SharedArrayBuffer(8)), syncMs: 100 },
      [port2],
    )
    expect(((await answer) as MessageEvent).data.t).toBe('ready')
    taken.terminate()
    await ended(taken)
  })

  it('are not started once released, when the release comes first', async () => {
    const spares = new SpareWorkers()
    const starting = spares.start(2)
    spares.release()
    await starting
    expect(spares.size).toBe(0)
  })

  it('are taken by the isolated spores a bot starts, none left once it runs', async () => {
    const asked: number[] = []
    const { spares } = hostKeeper
    const start = spares.start.bind(spares)
    spares.start = (count) => {
      asked.push(count)
      return start(count)
    }
    core = await startTestCore({
      spores: { pong: PONG, other: faultyEnzyme('other', "await ctx.reply({ text: 'other' })") },
      config: FAULT_CONFIG,
      grants: { alice: ['owner'] },
    })
    spares.start = start
    // One for each spore that runs in a host (the test's chat channel runs inline).
    expect(asked).toEqual([2])
    expect(hostKeeper.spares.size).toBe(0)
    expect(hostKeeper.spores.sort()).toEqual(['other', 'pong'])
    expect(await answered(core, '/pong', 'alice', 5_000)).toEqual(['pong'])
    expect(await answered(core, '/other', 'alice', 5_000)).toEqual(['other'])
  })
})
