import { afterEach, describe, expect, it } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CORE_SYNC_MS, hostKeeper } from '../../hosts/keeper.ts'
import { pluginsConfigure } from '../../mycelium/configure.ts'
import { pluginsToggle } from '../../mycelium/plugins.ts'
import { scratchFolder } from '../store/scratch.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { answered, answersAgain, FAULT_CONFIG, faultyEnzyme, PONG } from './fault-spores.ts'

// Nothing an isolated spore does may hold the bot's own thread: not its module read for a schema
// while it is disabled, not its schema's checks, not a storage transaction it keeps busy.

let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

/** An enzyme with a hand-written settings schema; `top` runs at its module's top level when armed. */
function schemaSpore(name: string, top: string): Record<string, string> {
  const spore = faultyEnzyme(name, "await ctx.reply({ text: 'fine' })")
  const source = spore['src/index.ts']!.replace(
    'export default {',
    `if (existsSync(join(import.meta.dir, '..', 'armed'))) { ${top} }
globalThis.schemaSporeRanIn = 'this thread'
export default {
  configSchema: {
    safeParse(input) {
      if (input && input.spin === true && once()) while (true) {}
      return { success: true, data: input }
    },
    toJsonSchema: () => ({ type: 'object', properties: { greeting: { type: 'string' }, spin: { type: 'boolean' } } }),
  },`,
  )
  return { ...spore, 'src/index.ts': source }
}

const TOPS = {
  loops: 'while (true) {}',
  exits: 'process.exit(4)',
}

describe("a disabled isolated spore's settings schema", () => {
  it('is read in a host of its own: a top level that never ends or exits costs the bot nothing', async () => {
    const spores: Record<string, Record<string, string>> = { pong: PONG, calm: schemaSpore('calm', '') }
    for (const [name, top] of Object.entries(TOPS)) spores[name] = schemaSpore(name, top)
    const folder = scratchFolder('hosts-schema')
    core = await startTestCore({
      spores,
      config: FAULT_CONFIG,
      grants: { alice: ['owner'], bob: ['owner'] },
      folder: folder.path,
    })
    const { runtime } = core.assembly
    const toggle = pluginsToggle(runtime, runtime.plugins)
    const configure = pluginsConfigure(runtime, runtime.plugins)
    for (const name of ['calm', ...Object.keys(TOPS)])
      expect(await toggle.disable(name)).toEqual({ ok: true })
    for (const name of Object.keys(TOPS)) writeFileSync(join(folder.path, 'spores', name, 'armed'), 'now')

    // A healthy one: its form is there, yet its module never ran on this thread.
    const calm = await configure.formSchema('calm')
    expect(calm).toMatchObject({ available: true })
    expect((globalThis as { schemaSporeRanIn?: string }).schemaSporeRanIn).toBeUndefined()
    expect(await configure.setSetting('calm', 'greeting', 'hi')).toEqual({ ok: true })

    for (const name of Object.keys(TOPS)) {
      const asked = configure.formSchema(name)
      await Bun.sleep(50)
      // Another person is answered while the spore's top level runs.
      expect(await answered(core, '/pong', 'bob', 2_000)).toEqual(['pong'])
      const form = await asked
      expect({ name, available: form.available }).toEqual({ name, available: false })
      // Read, never run: the spore stays disabled, and nothing restarts it.
      expect(core.germination.byName.get(name)?.state).toBe('disabled')
    }
    expect(await answered(core, '/pong', 'bob', 2_000)).toEqual(['pong'])
    expect(hostKeeper.recordOf('loops')).toBeUndefined()
    // Every host opened to read a schema is gone: only the running spores' remain. Counted by name,
    // since the keeper serves the whole process and an earlier test file may still be ending one.
    const hosted = hostKeeper.spores
    for (const name of ['calm', ...Object.keys(TOPS)]) expect(hosted).not.toContain(name)
    expect(hosted).toContain('pong')
  }, 60_000)
})

/** An enzyme whose module's top level writes down, in its own folder, which kind of thread read it. */
function tellingSpore(name: string): Record<string, string> {
  const spore = faultyEnzyme(name, "await ctx.reply({ text: 'fine' })")
  const source = spore['src/index.ts']!.replace(
    'export default {',
    `import { appendFileSync } from 'node:fs'
appendFileSync(join(import.meta.dir, '..', 'read-by'), Bun.isMainThread ? 'a main thread\\n' : 'a host\\n')
export default {`,
  )
  return { ...spore, 'src/index.ts': source }
}

describe("a first start's probe", () => {
  it('never imports an isolated spore: its module is read once, in its host; an inline one is probed', async () => {
    const folder = scratchFolder('hosts-probe')
    core = await startTestCore({
      spores: { isolated: tellingSpore('isolated'), trusted: tellingSpore('trusted') },
      config: 'isolation: { default: worker, spores: { chat: inline, trusted: inline } }\n',
      folder: folder.path,
    })
    const readBy = (name: string) => readFileSync(join(folder.path, 'spores', name, 'read-by'), 'utf8')
    // The probe's process imported it unguarded before: a guarded import or a top level that never
    // ends ran outside any host, and every isolated spore cost a second import on a first start.
    expect(readBy('isolated')).toBe('a host\n')
    // The probe still keeps an inline spore whose settings fail out of the bot's memory.
    expect(readBy('trusted')).toBe('a main thread\na main thread\n')
    expect(await core.ask('/isolated-ok')).toEqual(['ok isolated'])
    expect(await core.ask('/trusted-ok')).toEqual(['ok trusted'])
  }, 60_000)
})

/** An enzyme whose `/<name>` keeps its host busy while the core works its storage transaction. */
function transactionSpore(name: string, work: string): Record<string, string> {
  const spore = faultyEnzyme(name, work)
  return { ...spore, 'fault-once': 'busy once' }
}

const BUSY = {
  // The transaction's work itself never ends.
  'tx-spin': "await ctx.storage.transaction((tx) => { if (once()) while (true) {} ; tx.set('n', 1) })",
  // The transaction is asked, then the host turns busy before the core calls its work.
  'tx-busy': `const asked = ctx.storage.transaction((tx) => tx.set('n', 1))
if (once()) { const end = Date.now() + 4_000; while (Date.now() < end) {} }
await asked; await ctx.reply({ text: 'done' })`,
}

describe('a synchronous call into a busy host', () => {
  it(`blocks the bot's thread at most ${CORE_SYNC_MS} ms: the host is ended and restarted, another person is answered`, async () => {
    const spores: Record<string, Record<string, string>> = { pong: PONG }
    for (const [name, work] of Object.entries(BUSY)) spores[name] = transactionSpore(name, work)
    core = await startTestCore({ spores, config: FAULT_CONFIG, grants: { alice: ['owner'], bob: ['owner'] } })
    for (const name of Object.keys(BUSY)) {
      const faulting = answered(core, `/${name}`, 'alice', 20_000)
      await Bun.sleep(100)
      expect(await answered(core, '/pong', 'bob', 2_000)).toEqual(['pong'])
      expect((await faulting).length).toBeGreaterThan(0)
      expect(hostKeeper.recordOf(name)?.lastFault).toBe(
        `did not answer a synchronous call within ${CORE_SYNC_MS} ms`,
      )
      expect(await answersAgain(core, name, 'alice')).toBe(true)
    }
  }, 60_000)
})

describe("an isolated spore's settings schema that never answers", () => {
  it('is asked without blocking the bot: its host is ended for it, and it answers again', async () => {
    core = await startTestCore({
      spores: { pong: PONG, spinner: { ...schemaSpore('spinner', ''), 'fault-once': 'spin once' } },
      config: FAULT_CONFIG,
      grants: { alice: ['owner'], bob: ['owner'] },
    })
    const configure = pluginsConfigure(core.assembly.runtime, core.assembly.runtime.plugins)
    const writing = configure.setSetting('spinner', 'spin', true)
    await Bun.sleep(100)
    expect(await answered(core, '/pong', 'bob', 2_000)).toEqual(['pong'])
    await writing
    expect(hostKeeper.recordOf('spinner')?.lastFault).toMatch(/did not answer within/)
    expect(await answersAgain(core, 'spinner', 'alice')).toBe(true)
  }, 60_000)
})
