// An installed strain is a spore like any other to the real core: found in the installs folder,
// held disabled with its reason until an operator enables it, then germinated and answering.
// The real start also clears what an interrupted install left in staging.
import { afterEach, expect, test } from 'bun:test'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../../boot/config.ts'
import { installStrain } from '../../../sporangium/installation.ts'
import { createPluginStore, openStore } from '../../../store/index.ts'
import { sources } from '../../../store/schema/index.ts'
import { ROOT } from '../../boot/process.ts'
import { scratchFolder } from '../../store/scratch.ts'
import { startTestCore, type TestCore } from '../../support/runtime.ts'
import { archiveOf, pack, SOURCE } from './ground.ts'

// The test core's own spores folder is the installs folder.
const SPORANGIA = 'sporangia: { installs: spores, staging: staging }\n'
const scratch = scratchFolder('installed-core')
let core: TestCore | undefined
afterEach(async () => {
  await core?.stop()
  scratch.remove()
})

test('an installed strain germinates disabled with its reason, and runs once enabled', async () => {
  const folder = scratch.path
  writeFileSync(
    join(folder, 'mycelo.yaml'),
    `spores: [spores]\ndatabase: mycelo.db\nowner: { channel: chat, userId: owner }\n${SPORANGIA}`,
  )
  const config = loadConfig({ path: join(folder, 'mycelo.yaml'), env: {} })
  const store = openStore({ path: config.database })
  const plugins = createPluginStore(store)
  store.db
    .insert(sources)
    .values({ id: SOURCE, label: 'Test', url: 'https://example.org', trust: 'third-party' })
    .run()
  plugins.recordInstall('chat', { enabled: true, reason: null })
  const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent }
  const deps = { store, plugins, config, logger: silent }
  const installed = await installStrain(
    deps,
    archiveOf('help', await pack(join(ROOT, 'spores', 'help')), '1.0.0'),
  )
  expect(installed.ok).toBe(true)
  // What a crash mid-install leaves: a half-written folder in staging.
  mkdirSync(join(folder, 'staging', 'help.x1y2z3', 'spore', 'src'), { recursive: true })
  writeFileSync(join(folder, 'staging', 'help.x1y2z3', 'spore', 'spore.yaml'), 'kind: enz')
  store.close()

  core = await startTestCore({ spores: {}, config: SPORANGIA, folder })
  const help = core.germination.byName.get('help')
  expect(help?.state).toBe('disabled')
  expect(help?.reason).toContain('installed at strain 1.0.0 from source "test-sporangium"')
  expect(help?.reason).toContain('asks to act on the bot itself (permission commands.read)')
  expect(existsSync(join(folder, 'staging', 'help.x1y2z3'))).toBe(false)
  createPluginStore(core.store).recordInstall('help', { enabled: true, reason: null })
  await core.stop()

  core = await startTestCore({ spores: {}, config: SPORANGIA, folder })
  expect(core.germination.byName.get('help')?.state).toBe('live')
  const [answer] = await core.ask('/help')
  expect(answer).toContain('/help [command]')
})
