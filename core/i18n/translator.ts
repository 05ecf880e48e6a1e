import { type CompiledCatalog, formatMessage, type Logger, type TranslatableRef } from '@mycelo/septum'
import type { IntlMessageFormat } from 'intl-messageformat'

/** A domain's compiled catalogues, by locale. */
export type DomainCatalogs = ReadonlyMap<string, CompiledCatalog>

/** What a key renders from in one locale: its message, and its text when that never changes. */
interface Rendering {
  readonly message: IntlMessageFormat
  readonly text: string | undefined
}

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
   * Per domain, per locale asked for, each key as found (null: nowhere). Every reply renders a key,
   * and finding it walks the locale's candidates, its catalogue and its compiled message: done once
   * per key here, again only once its domain's catalogues are replaced.
   */
  readonly #found = new Map<string, Map<string, Map<string, Rendering | null>>>()
  readonly #logger: Logger
  readonly #warned = new Set<string>()

  constructor(options: { defaultLocale: string; logger: Logger }) {
    this.defaultLocale = options.defaultLocale
    this.#logger = options.logger
  }

  addDomain(domain: string, catalogs: DomainCatalogs): void {
    this.#domains.set(domain, catalogs)
    this.#found.delete(domain)
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
    const wanted = locale ?? this.defaultLocale
    const found = this.#rendering(ref.domain, ref.key, wanted)
    if (found === null) return ref.key
    if (found.text !== undefined) return found.text
    try {
      return formatMessage(found.message, ref.params)
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

  #rendering(domain: string, key: string, locale: string): Rendering | null {
    let byLocale = this.#found.get(domain)
    if (byLocale === undefined) {
      byLocale = new Map()
      this.#found.set(domain, byLocale)
    }
    let byKey = byLocale.get(locale)
    if (byKey === undefined || byKey.size >= KEYS_KEPT) {
      if (byLocale.size >= LOCALES_KEPT) byLocale.clear()
      byKey = new Map()
      byLocale.set(locale, byKey)
    }
    let found = byKey.get(key)
    if (found === undefined) {
      const message = this.#lookup(domain, key, locale)
      found = message ? { message, text: staticText(message) } : null
      byKey.set(key, found)
    }
    return found
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

/** The ICU parser's element type for plain text (its TYPE.literal). */
export const LITERAL = 0

/**
 * The text of a message with no placeholder, plural or tag: most replies are such, and they need
 * not go through ICU formatting each time (read once per key, see Translator.#found).
 */
function staticText(message: IntlMessageFormat): string | undefined {
  const elements = message.getAst()
  return elements.every((element) => element.type === LITERAL)
    ? elements.map((element) => (element as { value: string }).value).join('')
    : undefined
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
