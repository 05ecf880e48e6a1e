import { CatalogError, type CompiledCatalog, flattenCatalog } from '@mycelo/septum'
import { IntlMessageFormat } from 'intl-messageformat'

/**
 * A catalogue whose messages are compiled on first use: holding every message compiled costs an
 * idle bot memory for messages most runs never say. For catalogues known to compile: the core's
 * shipped ones (tests compile every key) and a spore's once germination has compiled it whole. A
 * key that does not compile throws the CatalogError compileCatalog would have thrown.
 */
export function lazyCatalog(locale: string, parsed: unknown): CompiledCatalog {
  try {
    Intl.getCanonicalLocales(locale)
  } catch (error) {
    throw new CatalogError({ locale, key: '', reason: 'not a valid locale tag', cause: error })
  }
  return { locale, messages: new LazyMessages(locale, flattenCatalog(locale, parsed)) }
}

class LazyMessages implements ReadonlyMap<string, IntlMessageFormat> {
  readonly #compiled = new Map<string, IntlMessageFormat>()
  constructor(
    readonly locale: string,
    readonly sources: ReadonlyMap<string, string>,
  ) {}

  get size(): number {
    return this.sources.size
  }

  has(key: string): boolean {
    return this.sources.has(key)
  }

  get(key: string): IntlMessageFormat | undefined {
    const done = this.#compiled.get(key)
    if (done !== undefined) return done
    const source = this.sources.get(key)
    if (source === undefined) return undefined
    let message: IntlMessageFormat
    try {
      message = new IntlMessageFormat(source, this.locale)
    } catch (error) {
      throw new CatalogError({ locale: this.locale, key, reason: icuReason(error), cause: error })
    }
    this.#compiled.set(key, message)
    return message
  }

  keys(): MapIterator<string> {
    return this.sources.keys()
  }

  *entries(): MapIterator<[string, IntlMessageFormat]> {
    for (const key of this.sources.keys()) yield [key, this.get(key)!]
  }

  *values(): MapIterator<IntlMessageFormat> {
    for (const key of this.sources.keys()) yield this.get(key)!
  }

  [Symbol.iterator](): MapIterator<[string, IntlMessageFormat]> {
    return this.entries()
  }

  forEach(
    each: (value: IntlMessageFormat, key: string, map: ReadonlyMap<string, IntlMessageFormat>) => void,
  ) {
    for (const [key, value] of this.entries()) each(value, key, this)
  }
}

// intl-messageformat's parse error carries the ICU error kind as its message and a `location`.
function icuReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const start = (error as { location?: { start?: { line: number; column: number } } }).location?.start
  return start === undefined
    ? error.message
    : `${error.message} at line ${start.line}, column ${start.column}`
}
