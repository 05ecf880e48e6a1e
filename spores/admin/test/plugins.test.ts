import { describe, expect, it } from 'bun:test'
import { SECRET_MASK } from '@mycelo/septum'
import { FakeMycelium } from './fake-mycelium.ts'
import { run } from './harness.ts'

describe('admin: plugins', () => {
  it('lists each spore with its kind as a person says it, its state and the reason it is off', async () => {
    const listing = [
      '5 spores:',
      'admin (commands) — live',
      'console (channel) — live',
      'radarr (connected system) — disabled: switched off by an operator',
      'quiet-hours (filter) — live',
      'broken (kind unknown) — dormant: spore.yaml: kind is missing',
    ].join('\n')
    expect((await run(new FakeMycelium(), 'spores')).reply).toBe(listing)
    // The older name answers the same.
    expect((await run(new FakeMycelium(), 'plugins')).reply).toBe(listing)
    const french = await run(new FakeMycelium(), 'spores', { locale: 'fr' })
    expect(french.reply).toStartWith('5 spores :')
    expect(french.reply).toContain('radarr (système connecté) — désactivée : switched off by an operator')
    expect(french.reply).toContain('admin (commandes) — active')
    expect(french.reply).toContain('broken (type inconnu) — en sommeil : spore.yaml: kind is missing')
  })

  it('shows a toggle still being applied', async () => {
    const mycelium = new FakeMycelium()
    const radarr = mycelium.plugins.findIndex((plugin) => plugin.name === 'radarr')
    mycelium.plugins[radarr] = { ...mycelium.plugins[radarr]!, enabled: true }
    const console = mycelium.plugins.findIndex((plugin) => plugin.name === 'console')
    mycelium.plugins[console] = { ...mycelium.plugins[console]!, enabled: false }
    const reply = (await run(mycelium, 'plugins')).reply
    expect(reply).toContain('radarr (connected system) — disabled: enabled, not running yet')
    expect(reply).toContain('console (channel) — live: disabled, still stopping')
  })

  it('shows the health of the connected systems, or says none reports', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'health')).reply).toBe('No connected system reports its health.')
    mycelium.reports = [
      { name: 'radarr', state: 'unreachable', detail: 'connection refused', checkedAt: new Date() },
      { name: 'plex', state: 'healthy', checkedAt: new Date() },
    ]
    expect((await run(mycelium, 'health')).reply).toBe(
      ['Health of the connected systems:', 'radarr: unreachable — connection refused', 'plex: healthy'].join(
        '\n',
      ),
    )
  })

  it('enables and disables a plugin, and renders the refusals', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'enable', { args: { spore: 'radarr' } })).reply).toBe(
      'configuration is incomplete: apiKey: Required',
    )
    expect(mycelium.plugins.find((plugin) => plugin.name === 'radarr')?.enabled).toBe(false)
    mycelium.stored.set('radarr', { url: 'http://127.0.0.1:7878', apiKey: 'k' })
    expect((await run(mycelium, 'enable', { args: { spore: 'radarr' } })).reply).toBe(
      'radarr is enabled and live.',
    )
    expect(mycelium.plugins.find((plugin) => plugin.name === 'radarr')?.enabled).toBe(true)
    expect((await run(mycelium, 'disable', { args: { spore: 'radarr' }, locale: 'fr' })).reply).toBe(
      'La spore radarr est désactivée et arrêtée.',
    )
    expect((await run(mycelium, 'disable', { args: { spore: 'ghost' } })).reply).toBe(
      'No plugin called ghost is installed.',
    )
  })

  it('reloads a plugin and says where it stands, in the reader’s language', async () => {
    const mycelium = new FakeMycelium()
    mycelium.stored.set('broken', {})
    expect((await run(mycelium, 'reload', { args: { spore: 'console' } })).reply).toBe(
      'console is read again from disk and live.',
    )
    expect((await run(mycelium, 'reload', { args: { spore: 'broken' }, locale: 'fr' })).reply).toBe(
      'La spore broken est relue depuis le disque et en sommeil : spore.yaml: kind is missing.',
    )
    expect(mycelium.reloaded).toEqual(['console', 'broken'])
    expect((await run(mycelium, 'reload', { args: { spore: 'ghost' } })).reply).toBe(
      'No plugin called ghost is installed.',
    )
  })

  it('shows the stored settings with secrets masked', async () => {
    const mycelium = new FakeMycelium()
    mycelium.stored.set('radarr', {
      url: 'http://127.0.0.1:7878',
      apiKey: 'hunter2',
      tags: ['4k'],
      retries: 3,
    })
    expect((await run(mycelium, 'settings', { args: { spore: 'radarr' } })).reply).toBe(
      [
        'Settings of radarr:',
        'url = http://127.0.0.1:7878',
        `apiKey = ${SECRET_MASK}`,
        'tags = ["4k"]',
        'retries = 3',
      ].join('\n'),
    )
    expect((await run(mycelium, 'settings', { args: { spore: 'console' } })).reply).toBe(
      'console has no stored setting.',
    )
    expect((await run(mycelium, 'settings', { args: { spore: 'ghost' } })).reply).toBe(
      'No plugin called ghost is installed.',
    )
  })

  it('writes a setting read by the type its schema gives the key', async () => {
    const mycelium = new FakeMycelium()
    const set = (key: string, value: string) =>
      run(mycelium, 'set', { args: { spore: 'radarr', key, value } })
    expect((await set('url', 'http://10.0.0.2:7878')).reply).toBe(
      'url of radarr is saved; it applies when radarr is enabled.',
    )
    // apiKey is text in radarr's schema: digits stay digits.
    await set('apiKey', '12345')
    await set('tags', '["4k", "hdr"]')
    const settings = mycelium.stored.get('radarr')
    expect(settings).toEqual({ url: 'http://10.0.0.2:7878', apiKey: '12345', tags: ['4k', 'hdr'] })
    expect((await set('tags', 'true')).reply).toBe(
      'tags of radarr takes a list, written as JSON such as ["a", "b"]; that value is not one.',
    )
    expect(settings?.tags).toEqual(['4k', 'hdr'])
    expect((await set('colour', 'blue')).reply).toBe('radarr has no setting called colour.')
    expect(settings?.colour).toBeUndefined()
  })

  it('reads a value as JSON when it parses and as text otherwise, where no schema gives a type', async () => {
    const mycelium = new FakeMycelium()
    const settings = mycelium.stored.get('console')
    const set = (value: string, rest?: string) =>
      run(mycelium, 'set', { args: { spore: 'console', key: 'anything', value }, ...(rest ? { rest } : {}) })
    await set('true')
    expect(settings?.anything).toBe(true)
    await set('"42"')
    expect(settings?.anything).toBe('42')
    await set('[not json')
    expect(settings?.anything).toBe('[not json')
    await set('12345')
    expect(settings?.anything).toBe(12345)
    // The bus hands `"12345"` over as 12345; the quotes the reader typed survive in `rest` only.
    await set('12345', 'console anything "12345"')
    expect(settings?.anything).toBe('12345')
    await set('12345', "console anything '12345'")
    expect(settings?.anything).toBe('12345')
  })

  it('describes the settings form field by field, or why there is none', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'form', { args: { spore: 'radarr' } })).reply).toBe(
      [
        'Settings radarr takes:',
        'url — text, required: Where Radarr listens',
        'apiKey — text, required, secret',
        'quality — one of "sd", "hd", default "sd"',
        'tags — list',
        'retries — whole number | nothing',
      ].join('\n'),
    )
    expect((await run(mycelium, 'form', { args: { spore: 'radarr' }, locale: 'fr' })).reply).toContain(
      'apiKey — texte, obligatoire, secret',
    )
    expect((await run(mycelium, 'form', { args: { spore: 'radarr' }, locale: 'fr' })).reply).toContain(
      'quality — l’une des valeurs "sd", "hd", par défaut "sd"',
    )
    expect((await run(mycelium, 'form', { args: { spore: 'console' } })).reply).toBe(
      'console has no settings form: console publishes no JSON Schema',
    )
  })
})
