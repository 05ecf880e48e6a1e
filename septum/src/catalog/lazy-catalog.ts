import type { IntlMessageFormat } from 'intl-messageformat'
import { type CompiledCatalog, checkLocaleTag, compileMessage } from './compile-catalog.ts'
import { flattenCatalog } from './flatten-catalog.ts'

/**
 * A catalogue whose messages are compiled on first use: holding every message compiled costs an
 * idle bot memory for messages most runs never say. For catalogues known to compile: the core's
 * shipped ones (tests compile every key) and a spore's once germination has compiled it whole. A
 * key that does not compile throws the CatalogError compileCatalog would have thrown.
 */
export function lazyCatalog(locale: string, parsed: unknown): CompiledCatalog {
  checkLocaleTag(locale)
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
    const message = compileMessage(this.locale, key, source)
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
