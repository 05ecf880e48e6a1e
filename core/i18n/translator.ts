import type { CompiledCatalog, Logger, TranslatableRef } from '@mycelo/septum'

type Params = Readonly<Record<string, unknown>>

/** A domain's compiled catalogues, by locale. */
export type DomainCatalogs = ReadonlyMap<string, CompiledCatalog>

/**
 * Renders catalogue keys for every domain the core knows: its own (`core`), `common`, and each
 * spore's. Lookup tries the exact locale, then its language (`fr` for `fr-CA`), then the default
 * locale with one warning per missing key; a key found nowhere renders as itself without ICU.
 */
export class Translator {
  readonly defaultLocale: string
  readonly #domains = new Map<string, DomainCatalogs>()
  readonly #logger: Logger
  readonly #warned = new Set<string>()

  constructor(options: { defaultLocale: string; logger: Logger }) {
    this.defaultLocale = options.defaultLocale
    this.#logger = options.logger
  }

  addDomain(domain: string, catalogs: DomainCatalogs): void {
    this.#domains.set(domain, catalogs)
  }

  removeDomain(domain: string): void {
    this.#domains.delete(domain)
  }

  hasDomain(domain: string): boolean {
    return this.#domains.has(domain)
  }

  /** Every locale some domain ships a catalogue for, the default first. */
  locales(): readonly string[] {
    const found = new Set<string>([this.defaultLocale])
    for (const catalogs of this.#domains.values()) for (const locale of catalogs.keys()) found.add(locale)
    return [...found]
  }

  /** Whether a key resolves in some locale of the domain, i.e. would not render as itself. */
  knows(domain: string, key: string): boolean {
    const catalogs = this.#domains.get(domain)
    if (!catalogs) return false
    for (const catalog of catalogs.values()) if (catalog.messages.has(key)) return true
    return false
  }

  /** `logger` names who asked, for the error a format failure logs; the core's own by default. */
  render(ref: TranslatableRef, locale?: string, logger: Logger = this.#logger): string {
    const wanted = locale ?? this.defaultLocale
    const found = this.#lookup(ref.domain, ref.key, wanted)
    if (!found) return ref.key
    try {
      const out = found.format(ref.params as Record<string, never> | undefined)
      return Array.isArray(out) ? out.map(String).join('') : String(out)
    } catch (error) {
      // A placeholder nobody supplied: show the key rather than crash the reply.
      logger.error('translation failed to format; rendering its key instead', {
        domain: ref.domain,
        key: ref.key,
        locale: wanted,
        error: error instanceof Error ? error.message : String(error),
      })
      return ref.key
    }
  }

  #lookup(domain: string, key: string, locale: string) {
    const catalogs = this.#domains.get(domain)
    if (!catalogs) return undefined
    let shipsLocale = false
    for (const candidate of localeCandidates(locale)) {
      const catalog = catalogs.get(candidate)
      if (!catalog) continue
      shipsLocale = true
      const message = catalog.messages.get(key)
      if (message) return message
    }
    const fallback = catalogs.get(this.defaultLocale)?.messages.get(key)
    // A domain that ships no catalogue for the locale at all is untranslated, not missing a key.
    if (fallback && shipsLocale) this.#warnOnce(domain, key, locale)
    return fallback
  }

  #warnOnce(domain: string, key: string, locale: string): void {
    const id = `${domain}\u0000${key}`
    if (this.#warned.has(id)) return
    this.#warned.add(id)
    this.#logger.warn('translation missing; using the default locale', { domain, key, locale })
  }
}

/** `fr-CA` tries `fr-CA` then `fr`. */
export function localeCandidates(locale: string): readonly string[] {
  const language = locale.split(/[-_]/)[0] ?? locale
  return language === locale ? [locale] : [locale, language]
}

export type { Params as TranslationParams }
