import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CatalogError, compileCatalog, lazyCatalog } from '@mycelo/septum'
import { parse } from 'yaml'
import { CORE_TRANSLATIONS, loadDomain } from '../../boot/catalogues.ts'

const DOMAINS = ['core', 'common']
const files = DOMAINS.flatMap((domain) =>
  readdirSync(join(CORE_TRANSLATIONS, domain))
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => ({ domain, file, path: join(CORE_TRANSLATIONS, domain, file) })),
)

describe("the core's shipped catalogues, compiled on first use", () => {
  it('are read by Bun the way the yaml package reads them', () => {
    expect(files.length).toBeGreaterThanOrEqual(4)
    for (const { path } of files) {
      const text = readFileSync(path, 'utf8')
      expect(Bun.YAML.parse(text)).toEqual(parse(text))
    }
  })

  it('compile every key of every locale (a message that does not is a bug in this release)', () => {
    for (const domain of DOMAINS) {
      const catalogs = loadDomain(join(CORE_TRANSLATIONS, domain))
      expect(catalogs.size).toBeGreaterThanOrEqual(2)
      for (const catalog of catalogs.values()) {
        expect(catalog.messages.size).toBeGreaterThan(10)
        // Reading a key compiles it: one that does not compile throws here, naming locale and key.
        for (const key of catalog.messages.keys()) expect(catalog.messages.get(key)?.getAst()).toBeArray()
      }
    }
  })

  it('render what the eagerly compiled catalogue renders', () => {
    const text = readFileSync(join(CORE_TRANSLATIONS, 'core', 'fr.yaml'), 'utf8')
    const eager = compileCatalog('fr', parse(text)).messages
    const lazy = lazyCatalog('fr', parse(text)).messages
    expect([...lazy.keys()]).toEqual([...eager.keys()])
    const key = 'boot.running'
    expect(lazy.get(key)!.format({ live: 1, total: 3 })).toBe(eager.get(key)!.format({ live: 1, total: 3 }))
    expect(lazy.get(key)).toBe(lazy.get(key))
    expect(lazy.get('no.such.key')).toBeUndefined()
  })

  it('name the locale and key of a message that does not compile, when it is read', () => {
    const catalog = lazyCatalog('en', { fine: 'Hello', broken: { deeper: 'Hello {name' } })
    expect(catalog.messages.get('fine')!.format()).toBe('Hello')
    expect(() => catalog.messages.get('broken.deeper')).toThrow(CatalogError)
    expect(() => catalog.messages.get('broken.deeper')).toThrow(/broken\.deeper/)
  })

  it('refuse a locale tag that is not one, at once', () => {
    expect(() => lazyCatalog('not a locale', {})).toThrow(CatalogError)
  })
})
