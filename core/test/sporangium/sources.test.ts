import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NewSource, SourceInfo, SourcesManage } from '@mycelo/septum'
import { eq } from 'drizzle-orm'
import { carriedFolderOf, ensureOfficialSources, OFFICIAL_SOURCES_FILE } from '../../sporangium/official.ts'
import { sourceOutcomes } from '../../sporangium/sources.ts'
import { sources } from '../../store/schema/index.ts'
import { ROOT as ROOT_FOLDER } from '../boot/process.ts'
import { type Bot, probeEnzyme, refusalText, rejectionText, startBot } from '../mycelium/harness.ts'

let bot: Bot
let manager: SourcesManage

beforeAll(async () => {
  bot = await startBot({
    spores: { keeper: probeEnzyme('keeper', { scopes: ['sources.manage'] }) },
    config: { sporangia: { allowLoopbackHttp: false } },
  })
  manager = bot.surface<SourcesManage>('keeper')
})

afterAll(async () => {
  await bot.stop()
})

const storedToken = (id: string) =>
  bot.store.db.select({ token: sources.token }).from(sources).where(eq(sources.id, id)).get()?.token
const withLoopback = (allowLoopbackHttp: boolean) =>
  sourceOutcomes({ store: bot.store, config: { sporangia: { ...bot.config.sporangia, allowLoopbackHttp } } })

/** The address sources.json gives the official source: this project's own, not another's. */
const OFFICIAL_URL: string = JSON.parse(readFileSync(OFFICIAL_SOURCES_FILE, 'utf8'))[0].url

describe('the official source', () => {
  it("is this project's own, and carries the official spores", () => {
    expect(new URL(OFFICIAL_URL).hostname).not.toBe('github.com')
    expect(carriedFolderOf('official')).toBe(join(ROOT_FOLDER, 'sporangia', 'official'))
  })

  it('is seeded at first start from sporangia/sources.json, official and enabled', async () => {
    const official = (await manager.listSources()).find((source) => source.id === 'official')
    expect(official).toEqual({
      id: 'official',
      label: 'Mycelo official spores',
      url: OFFICIAL_URL,
      trust: 'official',
      enabled: true,
    })
  })

  it('can be disabled, stays disabled when seeding runs again, and never deleted', async () => {
    const disabled = await manager.updateSource('official', { enabled: false })
    expect(disabled.enabled).toBe(false)
    ensureOfficialSources(bot.store)
    expect((await manager.listSources()).find((s) => s.id === 'official')?.enabled).toBe(false)
    expect(await rejectionText(bot, manager.deleteSource('official'))).toBe(
      'Refused: "official" is an official source; it can be disabled but never deleted.',
    )
    expect(await rejectionText(bot, manager.deleteSource('official'), 'fr')).toContain('jamais la supprimer')
    expect((await manager.listSources()).some((s) => s.id === 'official')).toBe(true)
    await manager.updateSource('official', { enabled: true })
  })

  it('keeps its address: pointing it elsewhere would keep its trust', async () => {
    expect(
      await rejectionText(bot, manager.updateSource('official', { url: 'https://evil.example/spores' })),
    ).toContain('its address cannot be changed')
    expect((await manager.listSources()).find((s) => s.id === 'official')?.url).toBe(OFFICIAL_URL)
  })
})

describe('adding a source', () => {
  it('makes it third-party whatever its label says, with an id from the label', async () => {
    const added = await manager.addSource({
      label: 'Official Mycelo',
      url: 'https://spores.example/official',
    })
    expect(added).toEqual({
      id: 'official-mycelo',
      label: 'Official Mycelo',
      url: 'https://spores.example/official',
      trust: 'third-party',
      enabled: true,
    })
    const again = await manager.addSource({ label: 'Official Mycelo', url: 'https://spores.example/two' })
    expect(again.id).toBe('official-mycelo-2')
    expect(again.trust).toBe('third-party')
  })

  it('reads a token back only as the mask', async () => {
    const added = await manager.addSource({
      label: 'Private',
      url: 'https://github.com/someone/private-spores',
      token: 'ghp_secret123',
    })
    expect(added.token).toBe('••••')
    expect(JSON.stringify(await manager.listSources())).not.toContain('ghp_secret123')
    expect(storedToken(added.id)).toBe('ghp_secret123')
  })

  it('keeps the stored token when the mask is written back, replaces or clears it otherwise', async () => {
    const added = await manager.addSource({ label: 'Tokened', url: 'https://a.example', token: 'first' })
    const kept = await manager.updateSource(added.id, { token: '••••', label: 'Renamed' })
    expect(kept).toMatchObject({ label: 'Renamed', token: '••••' })
    expect(storedToken(added.id)).toBe('first')
    await manager.updateSource(added.id, { token: 'second' })
    expect(storedToken(added.id)).toBe('second')
    const cleared = await manager.updateSource(added.id, { token: '' })
    expect(cleared.token).toBeUndefined()
    expect(storedToken(added.id)).toBeNull()
  })

  it('never stores the mask as a token', async () => {
    const added = await manager.addSource({ label: 'Masked', url: 'https://b.example', token: '••••' })
    expect(added.token).toBeUndefined()
    expect(storedToken(added.id)).toBeNull()
  })

  it('pins the publisher key it is given, and shows it', async () => {
    const key = `ed25519:${Buffer.alloc(32, 7).toString('base64')}`
    const added = await manager.addSource({ label: 'Signed', url: 'https://c.example', publisherKey: key })
    expect(added.publisherKey).toBe(key)
    expect((await manager.listSources()).find((s) => s.id === added.id)?.publisherKey).toBe(key)
    expect(
      await rejectionText(
        bot,
        manager.addSource({ label: 'Bad key', url: 'https://d.example', publisherKey: 'rsa:x' }),
      ),
    ).toContain('publisher key')
  })

  it('refuses an enabled flag that is not true or false', async () => {
    const loose = { label: 'Loose', url: 'https://h.example', enabled: 'no' } as unknown as NewSource
    expect(await rejectionText(bot, manager.addSource(loose))).toBe(
      'Refused: a source is enabled or not: true or false.',
    )
    expect((await manager.listSources()).some((s) => s.label === 'Loose')).toBe(false)
  })

  it('refuses an empty label and a token with spaces', async () => {
    expect(await rejectionText(bot, manager.addSource({ label: '  ', url: 'https://e.example' }))).toContain(
      'label',
    )
    expect(
      await rejectionText(
        bot,
        manager.addSource({ label: 'Spaced', url: 'https://e.example', token: 'a b' }),
      ),
    ).toContain('token')
  })
})

describe('the URL rule', () => {
  const refusedUrl = async (url: string, locale = 'en') =>
    rejectionText(bot, manager.addSource({ label: 'Somewhere', url }), locale)

  it('refuses plain http, even to this machine, while the loopback switch is off', async () => {
    expect(await refusedUrl('http://spores.example')).toContain('is not https')
    expect(await refusedUrl('http://127.0.0.1:8080')).toContain('sporangia.allowLoopbackHttp')
    expect(await refusedUrl('http://127.0.0.1:8080', 'fr')).toContain('n’est pas en https')
  })

  it('allows plain http to a loopback address only when the switch is on', async () => {
    const on = withLoopback(true)
    for (const url of ['http://127.0.0.1:8080/spores', 'http://localhost:9000', 'http://[::1]:7000']) {
      const added = await on.addSource({ label: 'Mirror', url })
      expect(added.ok).toBe(true)
    }
    const lan = await on.addSource({ label: 'LAN', url: 'http://192.168.1.20/spores' })
    expect(refusalText(bot, lan)).toContain('is not https')
  })

  it('refuses a local source, a non-URL, a URL carrying a password, and a GitHub URL naming no repository', async () => {
    expect(await refusedUrl('file:///srv/spores')).toContain('local location')
    expect(await refusedUrl('/srv/spores')).toContain('local location')
    expect(await refusedUrl('ftp://files.example/spores')).toContain('local location')
    expect(await refusedUrl('not a url')).toBe('Refused: "not a url" is not a URL.')
    expect(await refusedUrl('https://me:pw@spores.example')).toContain('give the source a token instead')
    expect(await refusedUrl('https://github.com/only-owner')).toContain('names no repository')
  })

  it('applies to an update too', async () => {
    const added = await manager.addSource({ label: 'Moving', url: 'https://f.example' })
    expect(await rejectionText(bot, manager.updateSource(added.id, { url: 'http://f.example' }))).toContain(
      'is not https',
    )
  })
})

describe('changing and removing a source', () => {
  it('refuses an unknown id', async () => {
    expect(await rejectionText(bot, manager.updateSource('nowhere', { enabled: false }))).toBe(
      'No source is known by the id "nowhere".',
    )
    expect(await rejectionText(bot, manager.deleteSource('nowhere'))).toBe(
      'No source is known by the id "nowhere".',
    )
  })

  it('deletes a third-party source', async () => {
    const added: SourceInfo = await manager.addSource({ label: 'Short lived', url: 'https://g.example' })
    await manager.deleteSource(added.id)
    expect((await manager.listSources()).some((s) => s.id === added.id)).toBe(false)
  })
})
