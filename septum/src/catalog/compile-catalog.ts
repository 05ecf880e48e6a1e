import { IntlMessageFormat } from 'intl-messageformat'
import { CatalogError } from './catalog-error.ts'
import { flattenCatalog } from './flatten-catalog.ts'

export interface CompiledCatalog {
  readonly locale: string
  readonly messages: ReadonlyMap<string, IntlMessageFormat>
}

/**
 * Compiles every key with intl-messageformat; the first key that fails throws a CatalogError naming
 * locale and key and the ICU error (e.g. UNCLOSED_TAG). A missing placeholder value is not a
 * compile error: it only throws when the message is formatted.
 */
export function compileCatalog(locale: string, parsed: unknown): CompiledCatalog {
  checkLocaleTag(locale)
  const messages = new Map<string, IntlMessageFormat>()
  for (const [key, message] of flattenCatalog(locale, parsed)) {
    messages.set(key, compileMessage(locale, key, message))
  }
  return { locale, messages }
}

/**
 * Throws the CatalogError compileCatalog would throw, without keeping anything: each message goes
 * through the parser the compiler uses, with the locale resolved once for the whole catalogue
 * rather than once per message, and no formatters built for messages that are only checked.
 */
export function checkCatalog(locale: string, parsed: unknown): void {
  checkLocaleTag(locale)
  const parse = IntlMessageFormat.__parse
  if (parse === undefined) {
    compileCatalog(locale, parsed)
    return
  }
  const resolved = IntlMessageFormat.resolveLocale(locale)
  for (const [key, message] of flattenCatalog(locale, parsed)) {
    try {
      parse(message, { locale: resolved })
    } catch (error) {
      throw new CatalogError({ locale, key, reason: describeIcuError(error), cause: error })
    }
  }
}

/** Throws the CatalogError a catalogue under an invalid locale tag gets. */
export function checkLocaleTag(locale: string): void {
  try {
    Intl.getCanonicalLocales(locale)
  } catch (error) {
    throw new CatalogError({ locale, key: '', reason: 'not a valid locale tag', cause: error })
  }
}

/** One message compiled, or the CatalogError naming locale, key and the ICU error. */
export function compileMessage(locale: string, key: string, source: string): IntlMessageFormat {
  try {
    return new IntlMessageFormat(source, locale)
  } catch (error) {
    throw new CatalogError({ locale, key, reason: describeIcuError(error), cause: error })
  }
}

interface IcuPosition {
  readonly line: number
  readonly column: number
}

// intl-messageformat's parse error carries the ICU error kind as its message and a `location`.
function describeIcuError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const start = (error as { location?: { start?: IcuPosition } }).location?.start
  return start === undefined
    ? error.message
    : `${error.message} at line ${start.line}, column ${start.column}`
}
