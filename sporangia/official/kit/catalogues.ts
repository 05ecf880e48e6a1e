// What every official spore's tests share: its manifest and catalogues read as germination reads
// them, and a translator over them that refuses the domains the bot would refuse.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileCatalog, flattenCatalog, formatMessage, type Translate } from '@mycelo/septum'
import { parse } from 'yaml'

export interface SporeFiles {
  readonly manifest: unknown
  /** Parsed translation files by locale, as enzymeChecks takes them. */
  readonly catalogs: Readonly<Record<string, unknown>>
  /** The flattened keys of one locale, sorted. */
  keysOf(locale: string): string[]
  /**
   * Renders a key in `readerLocale` (English when missing). `domains` maps each other domain the
   * spore may read (a required rhiza's) to its folder; any other domain throws, as in the bot.
   */
  translator(readerLocale: string, domains?: Readonly<Record<string, string>>): Translate
}

const LOCALES = ['en', 'fr'] as const

function readCatalogs(folder: string): Record<string, unknown> {
  return Object.fromEntries(
    LOCALES.map((locale) => [
      locale,
      parse(readFileSync(join(folder, 'translations', `${locale}.yaml`), 'utf8')) as unknown,
    ]),
  )
}

type Compiled = Map<string, ReadonlyMap<string, { format(values?: Record<string, unknown>): unknown }>>

function compile(catalogs: Record<string, unknown>): Compiled {
  return new Map(
    Object.entries(catalogs).map(([locale, parsed]) => [locale, compileCatalog(locale, parsed).messages]),
  )
}

/** Reads `<folder>/spore.yaml` and its en + fr catalogues. */
export function sporeFiles(folder: string): SporeFiles {
  const manifest = parse(readFileSync(join(folder, 'spore.yaml'), 'utf8')) as unknown
  const own = (manifest as { name: string }).name
  const catalogs = readCatalogs(folder)
  const compiled = new Map<string, Compiled>([[own, compile(catalogs)]])
  return {
    manifest,
    catalogs,
    keysOf: (locale) => [...flattenCatalog(locale, catalogs[locale]).keys()].sort(),
    translator(readerLocale, domains = {}) {
      for (const [domain, dir] of Object.entries(domains))
        if (!compiled.has(domain)) compiled.set(domain, compile(readCatalogs(dir)))
      return (key, params, locale) => {
        const domain = typeof key === 'string' ? own : key.domain
        if (domain !== own && domains[domain] === undefined) throw new Error(`domain ${domain} refused`)
        const name = typeof key === 'string' ? key : key.key
        const values = { ...(typeof key === 'string' ? {} : key.params), ...params }
        for (const candidate of [locale ?? readerLocale, 'en']) {
          const message = compiled.get(domain)?.get(candidate)?.get(name)
          if (message !== undefined) return formatMessage(message, values)
        }
        return name
      }
    },
  }
}
