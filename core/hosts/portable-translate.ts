import type { Logger } from '@mycelo/septum'
import type { DomainCatalogs } from '../i18n/translator.ts'
import { markShared, translateSourceOf } from './shared-values.ts'

/**
 * A spore's `t` as its host renders it without asking the core: the catalogues' sources of every
 * domain it may read, its locale and the default one. The host compiles them with the same
 * translator the core uses, so a reply reads the same wherever its spore runs.
 */
export interface PortableTranslate {
  readonly spore: string
  readonly locale: string
  readonly defaultLocale: string
  /** Every domain it may read, with catalogues or not. */
  readonly readable: readonly string[]
  /** Each readable domain's catalogues (shared: they cross once per host), as sources by locale then key. */
  readonly catalogs: Readonly<Record<string, CatalogSources>>
  readonly logger: Logger
}

export type CatalogSources = Readonly<Record<string, Readonly<Record<string, string>>>>

interface Made {
  readonly locale: string
  readonly catalogs: readonly (DomainCatalogs | undefined)[]
  readonly portable: PortableTranslate | undefined
}

const MADE = new WeakMap<object, Made>()
const SOURCES = new WeakMap<DomainCatalogs, CatalogSources | null>()

/**
 * What a host renders `translate` from, or undefined when it cannot (a catalogue kept compiled,
 * without its sources): then it crosses as a call back into the core. The same object while the
 * locale and catalogues stay the same, so it crosses once; a rhiza reloaded with new catalogues
 * makes a new one.
 */
export function portableTranslate(translate: object): PortableTranslate | undefined {
  const source = translateSourceOf(translate)
  if (source === undefined) return undefined
  const locale = source.locale()
  const domains = [...source.domains]
  const catalogs = domains.map((domain) => source.translator.catalogsOf(domain))
  const made = MADE.get(translate)
  if (made !== undefined && made.locale === locale && sameList(made.catalogs, catalogs)) return made.portable
  let portable: PortableTranslate | undefined = {
    spore: source.spore,
    locale,
    defaultLocale: source.translator.defaultLocale,
    readable: domains,
    catalogs: {},
    logger: source.logger,
  }
  for (const [i, domain] of domains.entries()) {
    const domainCatalogs = catalogs[i]
    if (domainCatalogs === undefined) continue
    const sources = sourcesOf(domainCatalogs)
    if (sources === undefined) {
      portable = undefined
      break
    }
    ;(portable.catalogs as Record<string, CatalogSources>)[domain] = sources
  }
  MADE.set(translate, { locale, catalogs, portable })
  return portable
}

/** A domain's catalogues as sources (kept by lazyCatalog), shared; undefined if one kept none. */
function sourcesOf(catalogs: DomainCatalogs): CatalogSources | undefined {
  let sources = SOURCES.get(catalogs)
  if (sources === undefined) {
    const byLocale: Record<string, Record<string, string>> = {}
    for (const [locale, catalog] of catalogs) {
      const kept = (catalog.messages as { sources?: unknown }).sources
      if (!(kept instanceof Map)) {
        sources = null
        break
      }
      byLocale[locale] = Object.fromEntries(kept as Map<string, string>)
    }
    sources ??= markShared(byLocale)
    SOURCES.set(catalogs, sources)
  }
  return sources ?? undefined
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i])
}
