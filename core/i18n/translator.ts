import type { CompiledCatalog, Logger, TranslatableRef } from '@mycelo/septum'
import type { IntlMessageFormat } from 'intl-messageformat'
import { Rendering } from './rendering.ts'

/** A domain's compiled catalogues, by locale. */
export type DomainCatalogs = ReadonlyMap<string, CompiledCatalog>

/** Locales remembered per domain, and keys per locale: the bounds only guard against odd callers. */
const LOCALES_KEPT = 64
const KEYS_KEPT = 10_000

/**
 * Renders catalogue keys for every domain the core knows: its own (`core`), `common`, and each
 * spore's. Lookup tries the exact locale, then its language (`fr` for `fr-CA`), then the default
 * locale with one warning per missing key; a key found nowhere renders as itself without ICU.
 */
export class Translator {
  readonly defaultLocale: string
  readonly #domains = new Map<string, DomainCatalogs>()
  /**
   * Per domain, each key as found per locale asked for. Every reply renders a key, and finding it
   * walks the locale's candidates, its catalogue and its compiled message: done once per key here,
   * again only once its domain's catalogues are replaced. A domain's texts are kept across that (a
   * spore's `t` holds its own), only emptied.
   */
  readonly #texts = new Map<string, DomainTexts>()
  readonly #logger: Logger
  readonly #warned = new Set<string>()

  constructor(options: { defaultLocale: string; logger: Logger }) {
    this.defaultLocale = options.defaultLocale
    this.#logger = options.logger
  }

  addDomain(domain: string, catalogs: DomainCatalogs): void {
    this.#domains.set(domain, catalogs)
    this.#texts.get(domain)?.clear()
  }

  /** A domain's catalogues as they are now (a spore's host renders its `t` from their sources). */
  catalogsOf(domain: string): DomainCatalogs | undefined {
    return this.#domains.get(domain)
  }

  /** Every locale some domain ships a catalogue for, the default first. */
  locales(): readonly string[] {
    const found = new Set<string>([this.defaultLocale])
    for (const catalogs of this.#domains.values()) for (const locale of catalogs.keys()) found.add(locale)
    return [...found]
  }

  /** `logger` names who asked, for the error a format failure logs; the core's own by default. */
  render(ref: TranslatableRef, locale?: string, logger: Logger = this.#logger): string {
    return this.textsOf(ref.domain)
      .find(ref.key, locale ?? this.defaultLocale)
      .render(ref.params, logger)
  }

  /** A domain's keys as found, per locale: what a spore's `t` renders its own keys from. */
  textsOf(domain: string): DomainTexts {
    return this.#texts.get(domain) ?? this.#newTexts(domain)
  }

  /** Apart from textsOf, which every render calls: JSC makes a closure's scope whenever its function is entered. */
  #newTexts(domain: string): DomainTexts {
    const texts = new DomainTexts(domain, (key, locale) => this.#lookup(domain, key, locale))
    this.#texts.set(domain, texts)
    return texts
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

/** One domain's keys, each found once per locale asked for and kept until the domain is replaced. */
export class DomainTexts {
  readonly #domain: string
  readonly #lookup: (key: string, locale: string) => IntlMessageFormat | undefined
  readonly #byLocale = new Map<string, Map<string, Rendering>>()

  constructor(domain: string, lookup: (key: string, locale: string) => IntlMessageFormat | undefined) {
    this.#domain = domain
    this.#lookup = lookup
  }

  /** The key in `locale`, found (or found missing, which renders the key) the first time it is asked. */
  find(key: string, locale: string): Rendering {
    let byKey = this.#byLocale.get(locale)
    if (byKey === undefined || byKey.size >= KEYS_KEPT) {
      if (this.#byLocale.size >= LOCALES_KEPT) this.#byLocale.clear()
      byKey = new Map()
      this.#byLocale.set(locale, byKey)
    }
    let found = byKey.get(key)
    if (found === undefined) {
      found = new Rendering({ domain: this.#domain, key, locale }, this.#lookup(key, locale))
      byKey.set(key, found)
    }
    return found
  }

  clear(): void {
    this.#byLocale.clear()
  }
}

const candidates = new Map<string, readonly string[]>()

/** `fr-CA` tries `fr-CA` then `fr`; remembered, since the same few locales come back all the time. */
export function localeCandidates(locale: string): readonly string[] {
  let found = candidates.get(locale)
  if (!found) {
    const language = locale.split(/[-_]/)[0] ?? locale
    found = language === locale ? [locale] : [locale, language]
    if (candidates.size < 1000) candidates.set(locale, found)
  }
  return found
}
