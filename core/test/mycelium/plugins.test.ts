import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type Mycelium, SECRET_MASK } from '@mycelo/septum'
import { and, eq } from 'drizzle-orm'
import { pluginInstalls, pluginSettings, sources } from '../../store/schema/index.ts'
import { garden } from './garden.ts'
import { type Bot, refusalText, startBot } from './harness.ts'

type PluginScopes = Mycelium<'plugins.read' | 'plugins.toggle' | 'plugins.configure'>

let bot: Bot
let mycelium: PluginScopes

beforeAll(async () => {
  bot = await startBot(garden())
  mycelium = bot.surface<PluginScopes>('steward')
})

afterAll(async () => {
  await bot.stop()
})

const row = (name: string) => bot.plugins.installOf(name)
const flags = (name: string) => bot.plugins.settingsWithFlags(name)

describe('plugins.read', () => {
  it('lists every discovered spore, sorted by name, as germination left it', () => {
    const plugins = mycelium.listPlugins()
    const names = plugins.map((plugin) => plugin.name)
    expect(names).toEqual([...names].sort())
    expect(names).toEqual(bot.germination.spores.map((spore) => spore.name).sort())
    const byName = new Map(plugins.map((plugin) => [plugin.name, plugin]))
    expect(byName.get('films')).toEqual({
      isolation: 'inline',
      name: 'films',
      kind: 'enzyme',
      state: 'live',
      enabled: true,
      description: 'Movie shortcuts',
    })
    expect(byName.get('ancient')).toEqual({
      isolation: 'inline',
      name: 'ancient',
      kind: 'enzyme',
      state: 'disabled',
      enabled: false,
      reason: 'disabled by an operator',
    })
    expect(byName.get('stumble')).toMatchObject({
      state: 'dormant',
      enabled: true,
      reason: 'start() failed: no luck',
    })
    expect(byName.get('broken')?.reason).toContain('broken at import')
  })

  it('lists a spore whose manifest names no known kind, without a kind', () => {
    const oddity = mycelium.listPlugins().find((plugin) => plugin.name === 'oddity')
    expect(oddity).toBeDefined()
    expect(oddity && 'kind' in oddity).toBe(false)
    expect(oddity?.state).toBe('dormant')
    expect(oddity?.reason).toContain('manifest refused: kind')
  })

  it('names the source and strain an inoculated spore came from', () => {
    bot.store.db
      .insert(sources)
      .values({ id: 'official', label: 'Official', url: 'https://example.invalid', trust: 'official' })
      // The official source is seeded at first start; the row is there already.
      .onConflictDoNothing()
      .run()
    bot.store.db
      .update(pluginInstalls)
      .set({ sourceId: 'official', strain: '1.2.0' })
      .where(eq(pluginInstalls.name, 'vault'))
      .run()
    const vault = mycelium.listPlugins().find((plugin) => plugin.name === 'vault')
    expect(vault).toMatchObject({ name: 'vault', kind: 'rhiza', source: 'official', strain: '1.2.0' })
  })
})

describe('plugins.toggle', () => {
  it('refuses to enable or disable a plugin that is not installed', async () => {
    expect(refusalText(bot, await mycelium.enable('nope'))).toBe('No spore named "nope" is installed.')
    expect(refusalText(bot, await mycelium.disable('nope'))).toBe('No spore named "nope" is installed.')
  })

  it('refuses to enable a plugin whose manifest is refused, leaving its row off', async () => {
    const text = refusalText(bot, await mycelium.enable('mangled'))
    expect(text).toStartWith(
      'The spore "mangled" cannot be enabled: its manifest is refused (manifest refused: ',
    )
    expect(text).toContain('commands')
    expect(row('mangled')).toEqual({ enabled: false, reason: 'disabled by an operator' })
  })

  it('refuses to enable a plugin whose septum range excludes the running septum', async () => {
    const text = refusalText(bot, await mycelium.enable('ancient'))
    expect(text).toStartWith('The spore "ancient" cannot be enabled: septum range "^0.5" excludes septum ')
    expect(row('ancient')?.enabled).toBe(false)
  })

  it('refuses to enable a plugin naming a secret its closed schema does not declare', async () => {
    expect(refusalText(bot, await mycelium.enable('leaky'))).toBe(
      'The spore "leaky" names secrets its configuration schema does not declare: token',
    )
    expect(row('leaky')?.enabled).toBe(false)
  })

  it('refuses to enable a plugin whose module cannot be read to check its settings', async () => {
    const text = refusalText(bot, await mycelium.enable('broken'))
    expect(text).toStartWith(
      'The configuration of "broken" cannot be checked: module src/index.ts failed to load',
    )
    expect(text).toContain('broken at import')
  })

  it('validates the stored settings before it flips the row, then enables once they pass', async () => {
    const refused = await mycelium.enable('keyed')
    expect(refusalText(bot, refused)).toMatch(/^configuration is incomplete: apiKey: \S/)
    expect(refusalText(bot, refused, 'fr')).toMatch(/^configuration incomplète\u00a0: apiKey: \S/)
    expect(row('keyed')).toEqual({ enabled: false, reason: 'disabled by an operator' })

    // Settings stored before they were checked at write time still block enable().
    bot.plugins.setSetting('keyed', 'apiKey', '')
    expect(refusalText(bot, await mycelium.enable('keyed'))).toBe(
      'configuration is incomplete: apiKey: Must be at least 1 character long. Fix it in its settings, then enable it.',
    )
    expect(row('keyed')?.enabled).toBe(false)

    expect(await mycelium.setSetting('keyed', 'apiKey', 'k-123')).toEqual({ ok: true })
    expect(await mycelium.enable('keyed')).toEqual({ ok: true })
    expect(row('keyed')).toEqual({ enabled: true, reason: null })
    // The row is on and the spore started in process.
    expect(mycelium.listPlugins().find((plugin) => plugin.name === 'keyed')).toMatchObject({
      state: 'live',
      enabled: true,
    })
  })

  it('disables a plugin by flipping its row and stopping it at once; enabling starts it again', async () => {
    expect(await mycelium.disable('tools')).toEqual({ ok: true })
    expect(row('tools')).toEqual({ enabled: false, reason: 'disabled by an operator' })
    expect(bot.germination.byName.get('tools')?.state).toBe('disabled')
    expect(await mycelium.enable('tools')).toEqual({ ok: true })
    expect(row('tools')).toEqual({ enabled: true, reason: null })
    expect(bot.germination.byName.get('tools')?.state).toBe('live')
  })

  it('words its refusals so the spore that asked can render them with its own ctx.t', async () => {
    const outcome = await mycelium.enable('nope')
    if (outcome.ok) throw new Error('expected a refusal')
    expect(bot.probe.translators.steward!(outcome.refusal)).toBe('No spore named "nope" is installed.')
    expect(bot.probe.translators.steward!(outcome.refusal, undefined, 'fr')).toBe(
      'Aucune spore nommée «\u00a0nope\u00a0» n’est installée.',
    )
  })
})

describe('plugins.configure', () => {
  it('refuses settings and setSetting for a plugin that is not installed', async () => {
    expect(refusalText(bot, await mycelium.settings('nope'))).toBe('No spore named "nope" is installed.')
    expect(refusalText(bot, await mycelium.setSetting('nope', 'a', 1))).toBe(
      'No spore named "nope" is installed.',
    )
  })

  it('never answers a secret: it reads back as the mask, stored in the clear and flagged', async () => {
    expect(await mycelium.setSetting('tuned', 'token', 'sekrit')).toEqual({ ok: true })
    expect(await mycelium.setSetting('tuned', 'greeting', 'hello')).toEqual({ ok: true })
    expect(await mycelium.settings('tuned')).toEqual({
      ok: true,
      value: { token: SECRET_MASK, greeting: 'hello' },
    })
    expect(flags('tuned')).toEqual({
      token: { value: 'sekrit', secret: true },
      greeting: { value: 'hello', secret: false },
    })
  })

  it('ignores the mask written to a secret key, so a form round trip keeps the credential', async () => {
    expect(await mycelium.setSetting('tuned', 'token', SECRET_MASK)).toEqual({ ok: true })
    expect(flags('tuned').token).toEqual({ value: 'sekrit', secret: true })
  })

  it('stores the mask as an ordinary string on a key that is not secret', async () => {
    expect(await mycelium.setSetting('tuned', 'greeting', SECRET_MASK)).toEqual({ ok: true })
    expect(flags('tuned').greeting).toEqual({ value: SECRET_MASK, secret: false })
  })

  it("reads a disabled plugin's secrets off its module, never imported at germination", async () => {
    expect(await mycelium.setSetting('keyed', 'apiKey', 'k-456')).toEqual({ ok: true })
    expect(flags('keyed').apiKey).toEqual({ value: 'k-456', secret: true })
    expect(await mycelium.settings('keyed')).toEqual({ ok: true, value: { apiKey: SECRET_MASK } })
  })

  it('serves a value stored before its key was declared secret in the clear, until it is written again', async () => {
    // As an earlier version of the spore, which declared nothing, would have left it.
    bot.store.db
      .delete(pluginSettings)
      .where(and(eq(pluginSettings.plugin, 'tuned'), eq(pluginSettings.key, 'token')))
      .run()
    bot.plugins.setSetting('tuned', 'token', 'legacy-token')
    expect(await mycelium.settings('tuned')).toMatchObject({ ok: true, value: { token: 'legacy-token' } })
    expect(await mycelium.setSetting('tuned', 'token', 'fresh-token')).toEqual({ ok: true })
    expect(flags('tuned').token).toEqual({ value: 'fresh-token', secret: true })
    expect(await mycelium.settings('tuned')).toMatchObject({ ok: true, value: { token: SECRET_MASK } })
  })

  it('keeps a stored secret flagged though the module no longer declares it', async () => {
    bot.plugins.setSetting('roomy', 'colour', 'red', { secret: true })
    expect(await mycelium.setSetting('roomy', 'colour', 'blue')).toEqual({ ok: true })
    expect(flags('roomy').colour).toEqual({ value: 'blue', secret: true })
    expect(await mycelium.settings('roomy')).toEqual({ ok: true, value: { colour: SECRET_MASK } })
  })

  it('refuses a key the published JSON Schema neither declares nor allows', async () => {
    expect(refusalText(bot, await mycelium.setSetting('tuned', 'colour', 'red'))).toBe(
      'The spore "tuned" has no setting named "colour".',
    )
    expect(refusalText(bot, await mycelium.setSetting('keyed', 'apikey', 'x'))).toBe(
      'The spore "keyed" has no setting named "apikey".',
    )
    expect(flags('tuned').colour).toBeUndefined()
  })

  it('accepts any key where the schema allows additional properties', async () => {
    expect(await mycelium.setSetting('roomy', 'shade', 'teal')).toEqual({ ok: true })
    expect(flags('roomy').shade).toEqual({ value: 'teal', secret: false })
  })

  it('accepts any well-formed key where a schema publishes no JSON Schema, since nothing can be checked', async () => {
    expect(await mycelium.setSetting('handmade', 'whatever', [1, 2])).toEqual({ ok: true })
    expect(flags('handmade').whatever).toEqual({ value: [1, 2], secret: false })
    // A plugin declaring no schema has no settings: every key is one it does not have.
    expect(refusalText(bot, await mycelium.setSetting('tools', 'anything', 1))).toBe(
      'The spore "tools" has no setting named "anything".',
    )
    expect(flags('tools').anything).toBeUndefined()
    // A module that throws at import declares nothing: the value is stored, unflagged.
    expect(await mycelium.setSetting('broken', 'apiKey', 'plain')).toEqual({ ok: true })
    expect(flags('broken').apiKey).toEqual({ value: 'plain', secret: false })
  })

  it('removes a stored setting, and refuses one that is not stored or a plugin not installed', async () => {
    expect(await mycelium.setSetting('tuned', 'greeting', 'hello')).toEqual({ ok: true })
    expect(await mycelium.unsetSetting('tuned', 'greeting')).toEqual({ ok: true })
    expect(flags('tuned').greeting).toBeUndefined()
    expect(refusalText(bot, await mycelium.unsetSetting('tuned', 'greeting'))).toBe(
      'The spore "tuned" has no stored value for "greeting".',
    )
    expect(refusalText(bot, await mycelium.unsetSetting('nope', 'a'))).toBe(
      'No spore named "nope" is installed.',
    )
  })

  it('refuses a value the settings table cannot store', async () => {
    expect(refusalText(bot, await mycelium.setSetting('roomy', 'colour', undefined))).toBe(
      'That value cannot be stored as the setting "colour" of "roomy".',
    )
    expect(refusalText(bot, await mycelium.setSetting('roomy', 'colour', 10n))).toBe(
      'That value cannot be stored as the setting "colour" of "roomy".',
    )
  })
})

describe('formSchema', () => {
  it("answers the plugin's JSON Schema and its secrets", async () => {
    const form = await mycelium.formSchema('tuned')
    if (!form.available) throw new Error(form.reason)
    expect(Object.keys(form.schema.properties as object).sort()).toEqual(['greeting', 'token'])
    expect(form.secrets).toEqual(['token'])
  })

  it('reads a disabled plugin’s schema off its module', async () => {
    const form = await mycelium.formSchema('keyed')
    expect(form).toMatchObject({ available: true, secrets: ['apiKey'] })
  })

  it('never rejects: every fault is a reason', async () => {
    expect(await mycelium.formSchema('nope')).toEqual({
      available: false,
      reason: 'no plugin named "nope" is installed',
    })
    expect(await mycelium.formSchema('tools')).toEqual({
      available: false,
      reason: 'the plugin declares no configuration',
    })
    expect(await mycelium.formSchema('handmade')).toEqual({
      available: false,
      reason: 'the configuration schema publishes no JSON Schema',
    })
    const broken = await mycelium.formSchema('broken')
    expect(broken.available).toBe(false)
    expect(!broken.available && broken.reason).toBe(
      'module src/index.ts failed to load: src/index.ts:1:11: broken at import',
    )
  })
})
