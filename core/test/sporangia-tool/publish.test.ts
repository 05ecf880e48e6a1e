// The five first-party spores published with the author's tool, as real processes, into a folder
// outside the checkout: the index, the archives and the bundles are checked by other means than
// the tool's own (septum's schema, WebCrypto, node-tar's list, the real core's germination).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { isBuiltin } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import {
  publisherKeySchema,
  type SporangiumIndex,
  sporangiumIndexSchema,
  strainStatement,
} from '@mycelo/septum'
import { extract, list } from 'tar'
import { parse } from 'yaml'
import { germinateIn, SqliteStore, sporeNamed } from '../germination/fixtures.ts'
import { FIRST_PARTY, ROOT, runTool } from './tool.ts'

/** What each spore needs set to germinate live: their required settings. */
const SETTINGS: Record<string, Record<string, unknown>> = {
  discord: { token: 'not-a-real-token' },
  signal: { account: '+15551234567', address: '127.0.0.1:7583' },
}

let folder: string
let sporangium: string
let publicKey: string
let index: SporangiumIndex

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mycelo-sporangium-'))
  sporangium = join(folder, 'sporangium')
  const keygen = await runTool(['keygen', join(folder, 'publisher.pem')])
  expect(keygen).toMatchObject({ code: 0, stderr: '' })
  publicKey = keygen.stdout.match(/Public key: (\S+)/)![1]!
  for (const spore of FIRST_PARTY) {
    const args = [
      'pack',
      join(ROOT, 'spores', spore),
      '--out',
      sporangium,
      '--key',
      join(folder, 'publisher.pem'),
    ]
    const packed = await runTool([...args, '--name', 'Mycelo first-party spores'])
    expect({ spore, ...packed }).toMatchObject({ spore, code: 0, stderr: '' })
  }
  index = sporangiumIndexSchema.parse(JSON.parse(await readFile(join(sporangium, 'index.json'), 'utf8')))
}, 60_000)

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

const strainOf = (spore: string) => index.spores[spore]!.strains['1.0.0']!

describe('keygen', () => {
  it('keeps the private key readable by its owner only and prints the public key as an index writes it', async () => {
    expect(publisherKeySchema.safeParse(publicKey).success).toBe(true)
    expect((await stat(join(folder, 'publisher.pem'))).mode & 0o777).toBe(0o600)
    expect(await readFile(join(folder, 'publisher.pem'), 'utf8')).toStartWith('-----BEGIN PRIVATE KEY-----\n')
  })
})

describe('the published sporangium', () => {
  it('has an index.json of format 1 offering the five spores, pinned to the key that signed them', async () => {
    expect(index.format).toBe(1)
    expect(index.name).toBe('Mycelo first-party spores')
    expect(index.publisher).toEqual({ key: publicKey })
    expect(Object.keys(index.spores)).toEqual([...FIRST_PARTY])
    expect(index.spores.discord!.kind).toBe('hypha')
    expect(index.spores.help!.kind).toBe('enzyme')
    expect(strainOf('help')).toMatchObject({ archive: 'archives/help-1.0.0.tgz', septum: '^1.0' })
    // Pretty-printed, as a person reviewing a publication reads it.
    expect(await readFile(join(sporangium, 'index.json'), 'utf8')).toBe(`${JSON.stringify(index, null, 2)}\n`)
  })

  it('holds archives whose size, SHA-256 and Ed25519 signature are those the index names', async () => {
    const key = await crypto.subtle.importKey(
      'raw',
      Buffer.from(publicKey.slice('ed25519:'.length), 'base64'),
      { name: 'Ed25519' },
      false,
      ['verify'],
    )
    for (const spore of FIRST_PARTY) {
      const strain = strainOf(spore)
      const bytes = await readFile(join(sporangium, strain.archive))
      const sha256 = createHash('sha256').update(bytes).digest('hex')
      const signed = await crypto.subtle.verify(
        { name: 'Ed25519' },
        key,
        Buffer.from(strain.signature!, 'base64'),
        new Uint8Array(strainStatement(spore, '1.0.0', sha256)),
      )
      // The same signature, beside the archive, for a GitHub release's `.tgz.sig` asset.
      const sig = await readFile(join(sporangium, `${strain.archive}.sig`), 'utf8')
      expect(sig).toBe(`${strain.signature}\n`)
      // And the front matter its release notes start with, which a core reads the kind and range from.
      const notes = await readFile(join(sporangium, `archives/${spore}-1.0.0.release.md`), 'utf8')
      const front = parse(notes.split('---\n')[1] ?? '') as { kind: string; septum: string }
      expect(front).toMatchObject({ kind: index.spores[spore]?.kind, septum: strain.septum })
      expect({ spore, size: bytes.length, sha256, signed }).toEqual({
        spore,
        size: strain.size,
        sha256: strain.sha256,
        signed: true,
      })
    }
  })

  it('packs each spore under one folder of its name: spore.yaml, the bundle and its translations, nothing else', async () => {
    for (const spore of FIRST_PARTY) {
      const entries: string[] = []
      await list({
        file: join(sporangium, strainOf(spore).archive),
        onReadEntry: (entry) => entries.push(entry.path),
      })
      const translations = await readdir(join(ROOT, 'spores', spore, 'translations')).catch(() => [])
      const files = ['index.js', 'spore.yaml', ...translations.map((file) => `translations/${file}`)]
      const folders = translations.length > 0 ? ['', 'translations/'] : ['']
      expect({ spore, entries: entries.sort() }).toEqual({
        spore,
        entries: [...folders, ...files].map((path) => `${spore}/${path}`).sort(),
      })
    }
  })

  it('passes verify', async () => {
    const verified = await runTool(['verify', sporangium])
    expect(verified.code).toBe(0)
    expect(verified.stdout).toContain('5 strains checked, all verified.')
  })
})

describe('a published strain unpacked outside the checkout', () => {
  let unpacked: string
  let germinated: Awaited<ReturnType<typeof germinateIn>>

  beforeAll(async () => {
    unpacked = join(folder, 'installed')
    await mkdir(unpacked)
    for (const spore of FIRST_PARTY)
      await extract({ file: join(sporangium, strainOf(spore).archive), cwd: unpacked })
    const store = SqliteStore.enabling(...FIRST_PARTY)
    for (const [spore, values] of Object.entries(SETTINGS)) store.settings.set(spore, values)
    germinated = await germinateIn(unpacked, store)
  }, 30_000)

  it('is where this test means it to be: outside the checkout, with no node_modules anywhere above it', async () => {
    expect(relative(ROOT, unpacked)).toStartWith('..')
    for (let dir = unpacked; dir !== join(dir, '..'); dir = join(dir, '..'))
      expect(await stat(join(dir, 'node_modules')).catch(() => undefined)).toBeUndefined()
  })

  // Static imports only: a dynamic one may be optional and caught (discord.js tries zlib-sync, which
  // no one installs); the germination below proves whatever the bundle needs resolves.
  it('imports statically nothing but what the core provides and what Bun itself has', async () => {
    for (const spore of FIRST_PARTY) {
      const bundle = await readFile(join(unpacked, spore, 'index.js'), 'utf8')
      const specifiers = [...bundle.matchAll(/^import\b[^;]*?["']([^"']+)["']/gm)].map((match) => match[1]!)
      const foreign = specifiers.filter(
        (specifier) =>
          !isBuiltin(specifier) && !/^(?:bun:|bun$|@mycelo\/septum(?:\/|$)|zod(?:\/|$))/.test(specifier),
      )
      expect({ spore, foreign }).toEqual({ spore, foreign: [] })
      expect(specifiers.length).toBeGreaterThan(0)
    }
  })

  it('germinates through the real core, every spore live with its translations', () => {
    for (const spore of FIRST_PARTY) {
      const germinatedSpore = sporeNamed(germinated.germination, spore)
      const locales = [...(germinatedSpore.catalogs?.keys() ?? [])].sort()
      expect({ spore, state: germinatedSpore.state, reason: germinatedSpore.reason, locales }).toEqual({
        spore,
        state: 'live',
        reason: undefined,
        // Every first-party spore words at least its own description in both languages.
        locales: ['en', 'fr'],
      })
    }
    // discord.js came along inside the bundle: its client was built by create().
    expect(sporeNamed(germinated.germination, 'discord').instance).toBeDefined()
  })
})
