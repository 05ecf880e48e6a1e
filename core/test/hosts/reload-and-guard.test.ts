import { afterEach, describe, expect, it } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { hostKeeper } from '../../hosts/keeper.ts'
import { ROOT } from '../boot/process.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { answered, FAULT_CONFIG, faultyEnzyme } from './fault-spores.ts'

let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

const hostOf = (name: string) => hostKeeper.hostOf(core?.germination.byName.get(name)?.instance)

describe('reloading an isolated spore', () => {
  it('starts the new host, swaps it in, then ends the old one', async () => {
    core = await startTestCore({
      spores: { greet: faultyEnzyme('greet', "await ctx.reply({ text: 'v1' })") },
      config: FAULT_CONFIG,
    })
    expect(await answered(core, '/greet', 'owner', 5_000)).toEqual(['v1'])
    const old = hostOf('greet')
    expect(old?.down).toBeUndefined()
    const source = join(core.folder, 'spores', 'greet', 'src', 'index.ts')
    const next = faultyEnzyme('greet', "await ctx.reply({ text: 'v2' })")['src/index.ts']!
    writeFileSync(source, next)
    const outcome = await core.assembly.runtime.lifecycle.restart('greet', { fresh: true })
    expect(outcome.state).toBe('live')
    const now = hostOf('greet')
    expect(now).toBeDefined()
    expect(now).not.toBe(old)
    expect(old?.down).toBeDefined()
    expect(await answered(core, '/greet', 'owner', 5_000)).toEqual(['v2'])
  })

  it('keeps the running host when the new version cannot be created', async () => {
    core = await startTestCore({
      spores: { greet: faultyEnzyme('greet', "await ctx.reply({ text: 'v1' })") },
      config: FAULT_CONFIG,
    })
    const old = hostOf('greet')
    writeFileSync(
      join(core.folder, 'spores', 'greet', 'src', 'index.ts'),
      'export default { nothing: true }\n',
    )
    const outcome = await core.assembly.runtime.lifecycle.restart('greet', { fresh: true })
    expect(outcome.kept).toBe(true)
    expect(hostOf('greet')).toBe(old)
    expect(await answered(core, '/greet', 'owner', 5_000)).toEqual(['v1'])
  })
})

describe('an isolated spore that imports what a host keeps from it', () => {
  const importing = (line: string) => faultyEnzyme('reach', "await ctx.reply({ text: 'reached' })", line)

  const store = join(ROOT, 'core/store/index.ts')
  for (const [what, line, how = ''] of [
    ['bun:ffi', "import { dlopen } from 'bun:ffi'\nvoid dlopen"],
    ['bun:sqlite', "import { Database } from 'bun:sqlite'\nvoid Database"],
    ['node:child_process', "import { execSync } from 'node:child_process'\nvoid execSync"],
    ['Bun.spawn', 'export const run = () => Bun.spawn(["true"])'],
    [
      'core',
      "import { openStore } from '../../../../../core/store/index.ts'\nvoid openStore",
      ' by a relative path',
    ],
    ['core', `import { openStore } from '${store}'\nvoid openStore`, ' by its absolute path'],
    [
      'core',
      `import { openStore } from '${Bun.pathToFileURL(store).href}'\nvoid openStore`,
      ' as a file: URL',
    ],
  ] as const) {
    it(`is refused at load naming ${what}${how}, unless the operator allows it`, async () => {
      core = await startTestCore({ spores: { reach: importing(line) }, config: FAULT_CONFIG })
      const refused = core.germination.byName.get('reach')
      expect(refused?.state).not.toBe('live')
      expect(refused?.reason).toContain(what === 'core' ? 'core/store/index.ts' : what)
      await core.stop()
      core = await startTestCore({
        spores: { reach: importing(line) },
        config: `${FAULT_CONFIG}  allow: { reach: ["${what}"] }\n`,
      })
      expect(core.germination.byName.get('reach')?.state).toBe('live')
      expect(await answered(core, '/reach', 'owner', 5_000)).toEqual(['reached'])
    })
  }
})
