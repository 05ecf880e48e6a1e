import { describe, expect, it } from 'bun:test'
import { FakeMycelium } from './fake-mycelium.ts'
import { run } from './harness.ts'

const KEY = `ed25519:${Buffer.alloc(32, 7).toString('base64')}`

describe('admin: sources', () => {
  it('lists the sources with trust, state, a masked token and the pinned key', async () => {
    const mycelium = new FakeMycelium()
    mycelium.sources.push({
      id: 'mirror',
      label: 'Home mirror',
      url: 'https://spores.example',
      trust: 'third-party',
      enabled: false,
      token: '••••',
      publisherKey: KEY,
    })
    expect((await run(mycelium, 'sources')).reply).toBe(
      [
        '2 sources:',
        'official — Mycelo — https://github.com/mycelo/spores — official — enabled — publisher key pinned at the first signed index',
        `mirror — Home mirror — https://spores.example — third party — disabled — token •••• — publisher key ${KEY}`,
      ].join('\n'),
    )
    expect((await run(mycelium, 'sources', { locale: 'fr' })).reply.split('\n')[2]).toBe(
      `mirror — Home mirror — https://spores.example — tierce — désactivée — jeton •••• — clé d’éditeur ${KEY}`,
    )
  })

  it('adds a source with a label of several words, pinning a key given last', async () => {
    const mycelium = new FakeMycelium()
    const added = await run(mycelium, 'source-add', {
      args: { url: 'https://spores.example', label: `My mirror ${KEY}` },
    })
    expect(added.reply).toBe(
      `Added: my-mirror — My mirror — https://spores.example — third party — enabled — publisher key ${KEY}`,
    )
    expect(mycelium.sources.at(-1)).toMatchObject({ label: 'My mirror', publisherKey: KEY })
    const unpinned = await run(mycelium, 'source-add', { args: { url: 'https://b.example', label: 'B' } })
    expect(unpinned.reply).toEndWith('— publisher key pinned at the first signed index')
  })

  it('renders the core’s refusal of an address in the reader’s language, and asks for a label', async () => {
    const mycelium = new FakeMycelium()
    const args = { url: 'http://spores.example', label: 'Plain' }
    expect((await run(mycelium, 'source-add', { args })).reply).toStartWith(
      'Refused: "http://spores.example" is not https.',
    )
    expect((await run(mycelium, 'source-add', { args, locale: 'fr' })).reply).toStartWith(
      'Refusé : « http://spores.example » n’est pas en https.',
    )
    const keyOnly = await run(mycelium, 'source-add', { args: { url: 'https://a.example', label: KEY } })
    expect(keyOnly.reply).toStartWith('Usage: /source-add <url> <label>')
    expect(mycelium.sources).toHaveLength(1)
  })

  it('changes a label, a token (shown masked, removed with -) and a key; refuses an unknown field', async () => {
    const mycelium = new FakeMycelium()
    const set = (field: string, value: string) =>
      run(mycelium, 'source-set', { args: { source: 'official', field, value } })
    expect((await set('label', 'Mycelo spores')).reply).toStartWith('Changed: official — Mycelo spores — ')
    expect((await set('token', 'ghp_secret')).reply).toContain('— token •••• —')
    expect((await set('token', '-')).reply).not.toContain('token')
    expect((await set('KEY', KEY)).reply).toEndWith(`publisher key ${KEY}`)
    expect((await set('colour', 'blue')).reply).toStartWith('Usage: /source-set <source> label|url|token|key')
    expect(
      (await run(mycelium, 'source-set', { args: { source: 'gone', field: 'label', value: 'x' } })).reply,
    ).toBe('No source is known by the id "gone".')
  })

  it('disables, enables and deletes a source, refusing to delete the official one', async () => {
    const mycelium = new FakeMycelium()
    await run(mycelium, 'source-add', { args: { url: 'https://spores.example', label: 'Mirror' } })
    const source = (name: string) => ({ args: { source: name } })
    expect((await run(mycelium, 'source-disable', source('mirror'))).reply).toBe(
      'mirror is disabled: nothing is installed from it until it is enabled.',
    )
    expect(mycelium.sources[1]?.enabled).toBe(false)
    expect((await run(mycelium, 'offered', source('mirror'))).reply).toBe(
      'The source "mirror" is disabled; enable it before installing from it.',
    )
    expect((await run(mycelium, 'source-enable', source('mirror'))).reply).toBe(
      'Spores can be installed from mirror again.',
    )
    expect(mycelium.sources[1]?.enabled).toBe(true)
    expect((await run(mycelium, 'source-delete', source('official'))).reply).toBe(
      'Refused: "official" is an official source; it can be disabled but never deleted.',
    )
    expect((await run(mycelium, 'source-delete', source('mirror'))).reply).toBe('mirror is deleted.')
    expect(mycelium.sources.map((s) => s.id)).toEqual(['official'])
  })
})

describe('admin: what a source offers', () => {
  it('lists spores, kinds, descriptions and strains, saying which run on this bot’s septum', async () => {
    const { reply } = await run(new FakeMycelium(), 'offered', { args: { source: 'official' } })
    const lines = reply.split('\n')
    expect(lines[0]).toMatch(/^official offers 2 spores \(this bot runs septum 1\.\d+\.\d+.*\):$/)
    expect(lines.slice(1)).toEqual([
      'films (commands) — Queue films on Radarr',
      '  2.0.0 — septum ^2.0, published Nov 20, 2026 — does not run here',
      '  1.1.0 — septum ^1.0, published Nov 10, 2026 — runs here',
      '  1.0.0 — septum ^1.0 — runs here',
      'quiet (filter)',
      '  0.1.0 — septum ^1.0 — runs here',
    ])
    const french = await run(new FakeMycelium(), 'offered', { args: { source: 'official' }, locale: 'fr' })
    expect(french.reply.split('\n')[2]).toBe(
      '  2.0.0 — septum ^2.0, publiée le 20 nov. 2026 — ne tourne pas ici',
    )
  })

  it('leaves out a publication date that is no date, rather than failing the listing', async () => {
    const mycelium = new FakeMycelium()
    mycelium.offers.set('official', [
      { name: 'films', kind: 'enzyme', strains: [{ strain: '1.0.0', septum: '^1.0', published: 'soon' }] },
    ])
    const { reply } = await run(mycelium, 'offered', { args: { source: 'official' } })
    expect(reply.split('\n').at(-1)).toBe('  1.0.0 — septum ^1.0 — runs here')
  })

  it('searches names and descriptions, and says when nothing matches', async () => {
    const mycelium = new FakeMycelium()
    const search = (words: string) =>
      run(mycelium, 'offered', { args: { source: 'official', search: words } })
    expect((await search('RADARR')).reply.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^official offers one spore /),
      'films (commands) — Queue films on Radarr',
    ])
    expect((await search('music')).reply).toBe('official offers no spore matching that search.')
    expect((await run(mycelium, 'offered', { args: { source: 'nowhere' } })).reply).toBe(
      'No source is known by the id "nowhere".',
    )
  })
})

describe('admin: installs', () => {
  it('installs the newest strain that runs here, then says what it asks for and how to enable it', async () => {
    const mycelium = new FakeMycelium()
    const { reply } = await run(mycelium, 'install', { args: { source: 'official', spore: 'films' } })
    expect(mycelium.inoculated).toEqual([{ source: 'official', spore: 'films' }])
    expect(reply).toBe(
      [
        'films 1.1.0 is installed from official, its archive proven against what the source published.',
        'installed from official, disabled: kind enzyme; requires radarr; requests no mycelium scope',
        'It is disabled: read what it asks for, then switch it on with /enable films.',
      ].join('\n'),
    )
    const french = await run(mycelium, 'install', {
      args: { source: 'official', spore: 'quiet', strain: '0.1.0' },
      typed: '!admin.install',
      locale: 'fr',
    })
    expect(mycelium.inoculated[1]).toEqual({ source: 'official', spore: 'quiet', strain: '0.1.0' })
    expect(french.reply.split('\n')[2]).toBe(
      'Elle est désactivée : lisez ce qu’elle demande, puis activez-la avec !admin.enable quiet.',
    )
  })

  it('renders the refusal of an install', async () => {
    const mycelium = new FakeMycelium()
    const args = { source: 'official', spore: 'music' }
    expect((await run(mycelium, 'install', { args })).reply).toBe(
      'The source "official" offers no spore named "music".',
    )
    expect((await run(mycelium, 'install', { args, locale: 'fr' })).reply).toBe(
      'La source « official » ne propose aucune spore nommée « music ».',
    )
  })

  it('upgrades to the newest strain of the source it came from, and rolls back', async () => {
    const mycelium = new FakeMycelium()
    await run(mycelium, 'install', { args: { source: 'official', spore: 'films', strain: '1.0.0' } })
    const upgraded = await run(mycelium, 'upgrade', { args: { spore: 'films' } })
    expect(mycelium.inoculated.at(-1)).toEqual({ source: 'official', spore: 'films', strain: '1.1.0' })
    expect(upgraded.reply).toBe(
      'films is upgraded from 1.0.0 to 1.1.0; if it was running, the new strain runs now. /rollback films puts 1.0.0 back.',
    )
    expect((await run(mycelium, 'upgrade', { args: { spore: 'films' } })).reply).toBe(
      '"films" is at 1.1.0: official offers nothing newer that runs here.',
    )
    expect((await run(mycelium, 'rollback', { args: { spore: 'films' } })).reply).toBe(
      'films is back at 1.0.0 from official; if it was running, that strain runs now.',
    )
    expect((await run(mycelium, 'rollback', { args: { spore: 'films' } })).reply).toBe(
      'There is no earlier strain of "films" to roll back to.',
    )
  })

  it('never steps back to an older strain than the one installed', async () => {
    const mycelium = new FakeMycelium()
    await run(mycelium, 'install', { args: { source: 'official', spore: 'films', strain: '1.1.0' } })
    // The source now offers only an older strain than the one installed by name.
    const offers = mycelium.offers.get('official') ?? []
    offers[0] = { name: 'films', kind: 'enzyme', strains: [{ strain: '1.0.0', septum: '^1.0' }] }
    expect((await run(mycelium, 'upgrade', { args: { spore: 'films' }, locale: 'fr' })).reply).toBe(
      '« films » est en 1.1.0 : official ne propose rien de plus récent qui fonctionne ici.',
    )
    expect(mycelium.inoculated).toHaveLength(1)
  })

  it('refuses to upgrade a spore that is not installed, or not from a source', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'upgrade', { args: { spore: 'ghost' } })).reply).toBe(
      'No spore named "ghost" is installed from a sporangium.',
    )
    expect((await run(mycelium, 'upgrade', { args: { spore: 'console' }, locale: 'fr' })).reply).toBe(
      'Aucune spore nommée « console » n’est installée depuis un sporange.',
    )
    expect(mycelium.inoculated).toEqual([])
  })

  it('uninstalls, and renders the refusal for a spore that was not installed from a source', async () => {
    const mycelium = new FakeMycelium()
    await run(mycelium, 'install', { args: { source: 'official', spore: 'quiet' } })
    expect((await run(mycelium, 'uninstall', { args: { spore: 'quiet' } })).reply).toBe(
      'quiet is uninstalled: its folder and install record are removed, its settings and any stored data kept.',
    )
    expect(mycelium.plugins.some((plugin) => plugin.name === 'quiet')).toBe(false)
    expect((await run(mycelium, 'uninstall', { args: { spore: 'quiet' } })).reply).toBe(
      'No spore named "quiet" is installed from a sporangium.',
    )
  })

  it('deletes the stored data only when told delete, and refuses any other word', async () => {
    const mycelium = new FakeMycelium()
    await run(mycelium, 'install', { args: { source: 'official', spore: 'quiet' } })
    expect((await run(mycelium, 'uninstall', { args: { spore: 'quiet', data: 'maybe' } })).reply).toStartWith(
      'Usage: /uninstall <spore> keep|delete — keep leaves its stored data for a reinstall, delete removes it',
    )
    expect(
      (await run(mycelium, 'uninstall', { args: { spore: 'quiet', data: 'delete' }, locale: 'fr' })).reply,
    ).toBe(
      'quiet est désinstallée : son dossier, son enregistrement d’installation, ses données et ses planifications sont retirés ; ses réglages sont gardés.',
    )
    await run(mycelium, 'install', { args: { source: 'official', spore: 'quiet' } })
    await run(mycelium, 'uninstall', { args: { spore: 'quiet', data: 'keep' } })
    await run(mycelium, 'install', { args: { source: 'official', spore: 'quiet' } })
    await run(mycelium, 'uninstall', { args: { spore: 'quiet' } })
    // Unsaid is passed on unsaid: the core decides whether there is anything to ask about.
    expect(mycelium.uninstalls).toEqual([
      { spore: 'quiet', keepData: false },
      { spore: 'quiet', keepData: true },
      { spore: 'quiet', keepData: undefined },
    ])
  })
})
