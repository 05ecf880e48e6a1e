import { afterEach, describe, expect, it } from 'bun:test'
import { hostKeeper } from '../../hosts/keeper.ts'
import { scratchFolder } from '../store/scratch.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { answered, answersAgain, FAULT_CONFIG, faultyEnzyme, PONG } from './fault-spores.ts'

let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

/** An enzyme whose `start()`, `create()` or module top level spins forever the first time. */
function spinsOnceIn(name: string, where: 'start' | 'create' | 'top'): Record<string, string> {
  const spore = faultyEnzyme(
    name,
    "await ctx.reply({ text: 'fine' })",
    where === 'top' ? 'if (once()) while (true) {}' : '',
  )
  let source = spore['src/index.ts']!
  if (where === 'create')
    source = source.replace('create: () => ({', 'create: () => (once() && eval("while (true) {}"), {')
  if (where === 'start')
    source = source.replace('handlers: {', 'async start() { if (once()) while (true) {} },\n    handlers: {')
  return { ...spore, 'src/index.ts': source, 'fault-once': 'spin once' }
}

describe('a spore that never yields while it starts', () => {
  it('is dormant with a reason while the rest starts, and answers once its host is restarted', async () => {
    const names = ['spin-start', 'spin-create', 'spin-top'] as const
    const wheres = ['start', 'create', 'top'] as const
    const spores = (faulting: boolean) => {
      const all: Record<string, Record<string, string>> = { pong: PONG }
      names.forEach((name, index) => {
        const { 'fault-once': marker, ...files } = spinsOnceIn(name, wheres[index]!)
        all[name] = faulting ? { ...files, 'fault-once': marker! } : files
      })
      return all
    }
    // A first start decides what is enabled: the faults come after.
    const folder = scratchFolder('hosts-start')
    const first = await startTestCore({ spores: spores(false), config: FAULT_CONFIG, folder: folder.path })
    await first.stop()
    core = await startTestCore({
      spores: spores(true),
      config: FAULT_CONFIG,
      grants: { alice: ['owner'], bob: ['owner'] },
      folder: folder.path,
    })
    for (const name of names) {
      expect(core.germination.byName.get(name)?.reason).toMatch(/did not (answer|finish) within/)
    }
    expect(await answered(core, '/pong', 'bob', 2_000)).toEqual(['pong'])
    for (const name of names) {
      expect({ name, again: await answersAgain(core, name, 'alice') }).toEqual({ name, again: true })
      expect(hostKeeper.recordOf(name)?.lastFault).toMatch(/did not answer within/)
    }
  }, 60_000)
})

/** An inhibitor that spins on the text "spin" the first time it sees it. */
function spinningInhibitor(enforcing: boolean): Record<string, string> {
  return {
    'spore.yaml': `kind: inhibitor\nname: gate\nseptum: "^1.0"\nenforcing: ${enforcing}\n`,
    'src/index.ts': `
let spun = false
export default {
  create: () => ({
    inspect(message) {
      if (message.text === 'spin' && !spun) { spun = true; while (true) {} }
      return { allow: true }
    },
  }),
}
`,
  }
}

describe('an isolated inhibitor whose inspect() never yields', () => {
  it('(advisory) is skipped: another person is answered within 2 s, and it judges again after its restart', async () => {
    core = await startTestCore({
      spores: { pong: PONG, gate: spinningInhibitor(false) },
      config: FAULT_CONFIG,
      grants: { alice: ['owner'], bob: ['owner'] },
    })
    void core.say('spin', { from: 'alice' })
    await Bun.sleep(100)
    expect(await answered(core, '/pong', 'bob', 2_000)).toEqual(['pong'])
    // An advisory gate that is down is skipped, so alice may be answered before the watchdog has
    // ended the spinning host: wait for the restart itself, then for the gate to judge again.
    const restarted = () => (hostKeeper.recordOf('gate')?.restarts ?? 0) > 0
    const gate = () => core?.germination.byName.get('gate')?.state
    for (let waited = 0; !(restarted() && gate() === 'live') && waited < 30_000; waited += 100)
      await Bun.sleep(100)
    expect(hostKeeper.recordOf('gate')?.restarts).toBeGreaterThan(0)
    expect(gate()).toBe('live')
    expect(await answersAgain(core, 'pong', 'alice')).toBe(true)
  }, 60_000)

  it('(enforcing) fails closed while it is down, and lets people through again after its restart', async () => {
    core = await startTestCore({
      spores: { pong: PONG, gate: spinningInhibitor(true) },
      config: FAULT_CONFIG,
      grants: { alice: ['owner'], bob: ['owner'] },
    })
    expect(await answered(core, '/pong', 'bob', 5_000)).toEqual(['pong'])
    void core.say('spin', { from: 'alice' })
    await Bun.sleep(100)
    // Judged by a guard that cannot answer: refused, silently, never let through.
    expect(await answered(core, '/pong', 'bob', 500)).toEqual([])
    expect(await answersAgain(core, 'pong', 'bob')).toBe(true)
    expect(hostKeeper.recordOf('gate')?.lastFault).toContain('did not answer within')
  }, 60_000)
})

describe('an isolated handler that allocates without end', () => {
  it('is ended under its memory ceiling while another person is answered, and answers again', async () => {
    core = await startTestCore({
      spores: {
        pong: PONG,
        hoard: faultyEnzyme(
          'hoard',
          'const hoard = []; for (let i = 0; ; i++) { hoard.push(new Array(1024 * 1024).fill(i)); await Bun.sleep(5) }',
        ),
      },
      // Its ping is given time: a host allocating (and collecting) on a busy machine answers late.
      config: `${FAULT_CONFIG.replace('answerMs: 1000', 'answerMs: 4000')}limits: { memoryMiB: 64 }\n`,
      grants: { alice: ['owner'], bob: ['owner'] },
    })
    const faulting = answered(core, '/hoard', 'alice', 20_000)
    await Bun.sleep(100)
    expect(await answered(core, '/pong', 'bob', 2_000)).toEqual(['pong'])
    expect((await faulting).length).toBeGreaterThan(0)
    const fault = () => hostKeeper.recordOf('hoard')?.lastFault
    for (let waited = 0; fault() === undefined && waited < 20_000; waited += 100) await Bun.sleep(100)
    expect(fault()).toContain('over its ceiling of 64 MiB')
    expect(await answersAgain(core, 'hoard', 'alice')).toBe(true)
  }, 60_000)
})

describe('an isolated handler that keeps external memory under its ceiling', () => {
  it('is counted once: a 40 MiB buffer under a 64 MiB ceiling leaves its host running', async () => {
    core = await startTestCore({
      spores: {
        buffer: faultyEnzyme(
          'buffer',
          "(globalThis as { kept?: ArrayBuffer }).kept = new ArrayBuffer(40 * 1024 * 1024); await ctx.reply({ text: 'kept' })",
        ),
      },
      config: `${FAULT_CONFIG}limits: { memoryMiB: 64 }\n`,
      grants: { alice: ['owner'] },
    })
    expect(await answered(core, '/buffer', 'alice', 5_000)).toEqual(['kept'])
    const host = hostKeeper.hostOf(core.germination.byName.get('buffer')?.instance)
    // Several of the memory watch's asks (one a second) pass with the buffer held.
    await Bun.sleep(3_500)
    expect(hostKeeper.recordOf('buffer')?.lastFault).toBeUndefined()
    expect(await answered(core, '/buffer-ok', 'alice', 5_000)).toEqual(['ok buffer'])
    expect(hostKeeper.hostOf(core.germination.byName.get('buffer')?.instance)).toBe(host)
  }, 30_000)
})
