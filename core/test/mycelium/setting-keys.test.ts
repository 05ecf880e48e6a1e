// A setting key a spore does not declare is refused by the one setSetting every surface calls:
// for a spore with no settings at all, for one with an open schema, and through chat, the API,
// the companion and a configuration import alike. Nothing refused is stored.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Mycelium } from '@mycelo/septum'
import { importConfiguration } from '../../operations/config-as-code/import.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { respondEnzyme } from '../boot/fixtures.ts'
import { runCli } from '../boot/process.ts'
import { type ApiGround, startApiGround } from '../http/api/ground.ts'
import { API_SEED, API_SPORES } from '../http/api/spores.ts'
import { scratchFolder } from '../store/scratch.ts'
import { type Bot, dmWith, probeEnzyme, probeHypha, refusalText, shippedSpore, startBot } from './harness.ts'

type PluginScopes = Mycelium<'plugins.read' | 'plugins.configure'>

/** Paths, control characters and prototype names: none can be a setting's name. */
const HOSTILE_KEYS = [
  '../../../etc/passwd',
  '\u0000admin',
  'admin\u0000.js',
  '__proto__',
  'a/b',
  'a..b',
  'x'.repeat(129),
]

const SPORES = {
  chat: probeHypha('chat'),
  admin: shippedSpore('admin'),
  steward: probeEnzyme('steward', { scopes: ['plugins.read', 'plugins.configure'] }),
  // An open schema: any well-formed key is allowed as an additional property, a hostile one is not.
  open: probeEnzyme('open', {
    preamble: `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
const configSchema = defineConfig(z.looseObject({ colour: z.string().optional() }))
`,
    exports: 'configSchema,',
  }),
}

describe('the mycelium setSetting', () => {
  let bot: Bot
  let mycelium: PluginScopes
  beforeAll(async () => {
    bot = await startBot({ spores: SPORES, disabled: [] })
    mycelium = bot.surface<PluginScopes>('steward')
  })
  afterAll(() => bot.stop())

  it('refuses every key of a spore that declares no settings, the admin spore included', async () => {
    for (const spore of ['admin', 'steward']) {
      for (const key of [...HOSTILE_KEYS, 'prefix', 'colour']) {
        const outcome = await mycelium.setSetting(spore, key, 'x')
        expect(outcome.ok).toBe(false)
        expect(refusalText(bot, outcome)).toStartWith(`The spore "${spore}" has no setting named "`)
      }
      expect(bot.plugins.settingsOf(spore)).toEqual({})
    }
  })

  it('refuses a hostile key even where the schema lets other keys through, and names it readably', async () => {
    for (const key of HOSTILE_KEYS) expect((await mycelium.setSetting('open', key, 'x')).ok).toBe(false)
    expect(refusalText(bot, await mycelium.setSetting('open', '\u0000admin', 'x'))).toBe(
      'The spore "open" has no setting named "\\u0000admin".',
    )
    expect(await mycelium.setSetting('open', 'shade', 'blue')).toEqual({ ok: true })
    expect(bot.plugins.settingsOf('open')).toEqual({ shade: 'blue' })
  })

  it('refuses them from chat, through the admin spore', async () => {
    await bot.emit('chat', '/set admin ../../../etc/passwd x')
    expect(bot.takeSent('chat', dmWith('boss')).join('\n')).toBe(
      'The spore "admin" has no setting named "../../../etc/passwd".',
    )
    await bot.emit('chat', '/set open admin\u0000.js x')
    expect(bot.takeSent('chat', dmWith('boss')).join('\n')).toBe(
      'The spore "open" has no setting named "admin\\u0000.js".',
    )
  })

  it('refuses them in a configuration import, naming the change and its line', async () => {
    const file = [
      'plugins:',
      '  admin:',
      '    enabled: true',
      '    settings:',
      '      "../../../etc/passwd": x',
      '',
    ].join('\n')
    const done = await importConfiguration(bot.runtime, file)
    expect(done.ok).toBe(false)
    if (done.ok) return
    const text = bot.runtime.translator.render(done.refusal, 'en')
    expect(text).toContain('plugins.admin.settings.../../../etc/passwd')
    expect(text).toContain('(line 5)')
    expect(text).toContain('has no setting named')
    expect(bot.plugins.settingsOf('admin')).toEqual({})
  })
})

describe('the API', () => {
  let api: ApiGround
  beforeAll(async () => {
    api = await startApiGround({ spores: API_SPORES, ...API_SEED })
  })
  afterAll(() => api.stop())

  it('answers 422 for each hostile key on the admin spore, and stores none', async () => {
    for (const key of HOSTILE_KEYS.slice(0, 3)) {
      const answer = await api.ask('PUT', `/spores/admin/settings/${encodeURIComponent(key)}`, {
        body: { value: 'x' },
      })
      expect(answer).toMatchObject({ status: 422, json: { key: 'refusal.setting_undeclared' } })
    }
    expect(api.runtime.plugins.settingsOf('admin')).toEqual({})
  })
})

describe('the companion', () => {
  const scratch = scratchFolder('setting-keys')
  afterAll(() => scratch.remove())

  it('refuses a key a spore with no settings does not have, and stores nothing', async () => {
    const spores = join(scratch.path, 'spores')
    mkdirSync(spores, { recursive: true })
    respondEnzyme(spores, 'echo')
    const config = join(scratch.path, 'mycelo.yaml')
    writeFileSync(
      config,
      'spores: [spores]\ndatabase: data/mycelo.db\nowner: { channel: chat, userId: boss }\n',
    )
    const done = await runCli(['set', 'echo', '../../../etc/passwd', 'x'], config)
    expect(done.code).toBe(1)
    expect(done.stdout + done.stderr).toContain(
      'The spore "echo" has no setting named "../../../etc/passwd".',
    )
    const store = openStore({ path: join(scratch.path, 'data', 'mycelo.db') })
    try {
      expect(createPluginStore(store).settingsOf('echo')).toEqual({})
    } finally {
      store.close()
    }
  })
})
