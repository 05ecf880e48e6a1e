// setSetting against the plugin's own schema, and reasons that follow the settings they are about.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type Mycelium, SECRET_MASK } from '@mycelo/septum'
import { report } from '../../germination/index.ts'
import type { SporeFiles } from '../germination/fixtures.ts'
import { type Bot, dmWith, probeEnzyme, probeHypha, refusalText, shippedSpore, startBot } from './harness.ts'

type PluginScopes = Mycelium<'plugins.read' | 'plugins.toggle' | 'plugins.configure'>

/** An enzyme whose default export carries `configSchema` built by defineConfig from `shape`. */
function configured(name: string, shape: string, secrets: readonly string[] = []): SporeFiles {
  return probeEnzyme(name, {
    preamble: `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
const configSchema = defineConfig(${shape}, { secrets: ${JSON.stringify(secrets)} })
`,
    exports: 'configSchema,',
  })
}

const SPORES = {
  chat: probeHypha('chat'),
  admin: shippedSpore('admin'),
  steward: probeEnzyme('steward', { scopes: ['plugins.read', 'plugins.toggle', 'plugins.configure'] }),
  // Shaped like the discord channel's settings.
  guilded: configured(
    'guilded',
    `z.object({ token: z.string().min(1), guilds: z.array(z.string().regex(/^\\d{17,20}$/)).optional(), port: z.number().int().optional() })`,
    ['token'],
  ),
  // Labelled by catalogue keys through .describe(), in en and fr.
  forecast: (() => {
    const spore = configured(
      'forecast',
      `z.object({ defaultCity: z.string().min(1).default('Nice').describe('settings.defaultCity'), units: z.enum(['metric', 'imperial']).describe('Plain words, not a key') })`,
    )
    return {
      ...spore,
      files: {
        ...spore.files,
        'translations/en.yaml':
          'settings:\n  defaultCity:\n    label: Default city\n    help: The city /forecast uses when none is named\n',
        'translations/fr.yaml':
          'settings:\n  defaultCity:\n    label: Ville par défaut\n    help: La ville que /forecast prend quand aucune n’est nommée\n',
      },
    }
  })(),
  // A discriminated union publishes oneOf of closed objects.
  wired: configured(
    'wired',
    `z.discriminatedUnion('transport', [
      z.strictObject({ transport: z.literal('socket'), path: z.string().startsWith('/') }),
      z.strictObject({ transport: z.literal('tcp'), host: z.string().min(1), port: z.number().int() }),
    ])`,
  ),
}

describe('setSetting checks the value against the spore’s own schema', () => {
  let bot: Bot
  let mycelium: PluginScopes
  beforeAll(async () => {
    bot = await startBot({ spores: SPORES, disabled: [] })
    mycelium = bot.surface<PluginScopes>('steward')
  })
  afterAll(() => bot.stop())
  const stored = (name: string) => bot.plugins.settingsOf(name)

  it('labels a field from the spore’s catalogue and leaves a field with a default optional', async () => {
    const form = await mycelium.formSchema('forecast')
    if (!form.available) throw new Error(form.reason)
    expect(form.schema.properties).toMatchObject({
      defaultCity: { title: 'Default city', description: 'The city /forecast uses when none is named' },
      units: { description: 'Plain words, not a key' },
    })
    expect(form.schema.required).toEqual(['units'])
  })

  it('refuses a value the schema rejects for that key, naming the problem, and takes a valid one', async () => {
    const outcome = await mycelium.setSetting('guilded', 'guilds', 123)
    expect(refusalText(bot, outcome)).toBe(
      'The spore "guilded" would refuse that value for "guilds": guilds: Expected a list, received a number',
    )
    expect(refusalText(bot, outcome, 'fr')).toStartWith(
      'La spore «\u00a0guilded\u00a0» refuserait cette valeur pour «\u00a0guilds\u00a0»\u00a0: guilds: ',
    )
    expect(refusalText(bot, await mycelium.setSetting('guilded', 'guilds', ['42']))).toStartWith(
      'The spore "guilded" would refuse that value for "guilds": guilds.0: ',
    )
    expect(stored('guilded').guilds).toBeUndefined()
    // A valid value is accepted while other keys are still missing: their issues do not block it.
    expect(await mycelium.setSetting('guilded', 'guilds', ['123456789012345678'])).toEqual({ ok: true })
    expect(stored('guilded')).toEqual({ guilds: ['123456789012345678'] })
  })

  it('refuses an empty secret, and leaves the mask written to a secret key unjudged and unwritten', async () => {
    expect(refusalText(bot, await mycelium.setSetting('guilded', 'token', ''))).toStartWith(
      'The spore "guilded" would refuse that value for "token": token: ',
    )
    expect(await mycelium.setSetting('guilded', 'token', SECRET_MASK)).toEqual({ ok: true })
    expect(stored('guilded').token).toBeUndefined()
    expect(await mycelium.setSetting('guilded', 'token', 't-1')).toEqual({ ok: true })
    expect(await mycelium.setSetting('guilded', 'token', SECRET_MASK)).toEqual({ ok: true })
    expect(stored('guilded').token).toBe('t-1')
  })

  it('refuses a number JSON cannot hold, and any value JSON would silently change', async () => {
    for (const value of [Number.POSITIVE_INFINITY, Number.NaN, [1, Number.NEGATIVE_INFINITY], new Date(0)]) {
      expect(refusalText(bot, await mycelium.setSetting('guilded', 'port', value))).toBe(
        'That value cannot be stored as the setting "port" of "guilded".',
      )
    }
    // A hole in a list would come back as null.
    expect((await mycelium.setSetting('guilded', 'guilds', new Array(1))).ok).toBe(false)
    expect(stored('guilded').port).toBeUndefined()
  })

  it('refuses a key that no member of a union declares, and accepts one some member does', async () => {
    expect(refusalText(bot, await mycelium.setSetting('wired', 'colour', 'red'))).toBe(
      'The spore "wired" has no setting named "colour".',
    )
    // The discriminator is still missing: that issue is not this key's.
    expect(await mycelium.setSetting('wired', 'host', 'example.org')).toEqual({ ok: true })
    expect(await mycelium.setSetting('wired', 'transport', 'tcp')).toEqual({ ok: true })
    expect(refusalText(bot, await mycelium.setSetting('wired', 'port', '7583'))).toStartWith(
      'The spore "wired" would refuse that value for "port": port: ',
    )
    expect(stored('wired')).toEqual({ host: 'example.org', transport: 'tcp' })
  })
})

describe('/set and /unset through the real bus', () => {
  let bot: Bot
  beforeAll(async () => {
    bot = await startBot({ spores: SPORES, disabled: [] })
  })
  afterAll(() => bot.stop())
  const ask = async (text: string) => {
    await bot.emit('chat', text)
    return bot.takeSent('chat', dmWith('boss')).join('\n')
  }

  it('reads the typed value by the schema type, and the core refuses what the spore would reject', async () => {
    expect(await ask('/set guilded guilds 123')).toBe(
      'guilds of guilded takes a list, written as JSON such as ["a", "b"]; that value is not one.',
    )
    expect(await ask('/set guilded guilds ["42"]')).toStartWith(
      'The spore "guilded" would refuse that value for "guilds": guilds.0: ',
    )
    expect(await ask('/set guilded port 1e999')).toBe(
      'port of guilded takes a whole number; that value is not one.',
    )
    expect(bot.plugins.settingsOf('guilded')).toEqual({})
    // A snowflake typed bare keeps every digit where the schema lists text.
    expect(await ask('/set guilded guilds [123456789012345678]')).toBe(
      'guilds of guilded is saved; guilded is dormant: configuration is incomplete: token: Required (expected text). Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
    )
    expect(bot.plugins.settingsOf('guilded')).toEqual({ guilds: ['123456789012345678'] })
    expect(await ask('/unset guilded guilds')).toBe(
      'guilds of guilded is removed; guilded is dormant: configuration is incomplete: token: Required (expected text). Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
    )
    expect(await ask('/unset guilded guilds')).toBe('The spore "guilded" has no stored value for "guilds".')
  })
})

describe('a reason about the settings is re-checked when they change', () => {
  describe('a spore dormant for its settings', () => {
    let bot: Bot
    let mycelium: PluginScopes
    beforeAll(async () => {
      // Every spore has an enabled row, so a spore whose settings fail is dormant, not disabled.
      bot = await startBot({ spores: SPORES, disabled: [] })
      mycelium = bot.surface<PluginScopes>('steward')
    })
    afterAll(() => bot.stop())
    const listed = () => mycelium.listPlugins().find((plugin) => plugin.name === 'wired')
    const reported = () => report(bot.germination).find((line) => line.name === 'wired')

    it('shows the issues still open, then starts it in process once its settings validate', async () => {
      expect(listed()).toMatchObject({ state: 'dormant', enabled: true })
      expect(listed()?.reason).toStartWith('configuration is incomplete: transport: ')
      await mycelium.setSetting('wired', 'transport', 'socket')
      expect(listed()?.reason).toStartWith('configuration is incomplete: path: ')
      expect(listed()?.reason).not.toContain('transport')
      await mycelium.setSetting('wired', 'path', '/run/wired.sock')
      expect(listed()).toMatchObject({ state: 'live', enabled: true })
      expect(listed()?.reason).toBeUndefined()
      expect(reported()?.state).toBe('live')
      // Removing a required setting again brings back what is true now.
      expect(await mycelium.unsetSetting('wired', 'path')).toEqual({ ok: true })
      expect(listed()?.reason).toStartWith('configuration is incomplete: path: ')
    })
  })

  describe('a spore the first start kept off for its settings', () => {
    let bot: Bot
    let mycelium: PluginScopes
    beforeAll(async () => {
      bot = await startBot({ spores: SPORES })
      mycelium = bot.surface<PluginScopes>('steward')
    })
    afterAll(() => bot.stop())
    const listed = () => mycelium.listPlugins().find((plugin) => plugin.name === 'guilded')

    it('says the settings now validate and that enabling starts it, on the row the next start reads too', async () => {
      expect(listed()).toMatchObject({ state: 'disabled', enabled: false })
      expect(listed()?.reason).toStartWith('configuration is incomplete: token: ')
      expect(await mycelium.setSetting('guilded', 'token', 't-1')).toEqual({ ok: true })
      expect(listed()?.reason).toBe('its settings now validate; enable it to start it')
      expect(bot.plugins.installOf('guilded')).toEqual({
        enabled: false,
        reason: 'its settings now validate; enable it to start it',
      })
    })
  })
})
