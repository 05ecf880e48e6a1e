import { CatalogError } from './catalog-error.ts'

/**
 * Flattens nested objects to dotted keys ("command.help.description"). A parsed file of null / {}
 * is an empty catalogue, and an empty entry (null) is skipped so it falls through to another
 * locale. A leaf that is not a string (number, array, bool) is a CatalogError naming locale and key.
 */
export function flattenCatalog(locale: string, parsed: unknown): ReadonlyMap<string, string> {
  const messages = new Map<string, string>()
  if (parsed === null || parsed === undefined) return messages
  if (!isPlainObject(parsed)) {
    throw new CatalogError({
      locale,
      key: '',
      reason: `expected a mapping of keys, found ${describe(parsed)}`,
    })
  }
  collect({ locale, node: parsed, prefix: '', messages })
  return messages
}

interface Walk {
  readonly locale: string
  readonly node: Readonly<Record<string, unknown>>
  readonly prefix: string
  readonly messages: Map<string, string>
}

function collect({ locale, node, prefix, messages }: Walk): void {
  for (const [segment, value] of Object.entries(node)) {
    const key = prefix === '' ? segment : `${prefix}.${segment}`
    if (value === null || value === undefined) continue
    if (isPlainObject(value)) {
      collect({ locale, node: value, prefix: key, messages })
      continue
    }
    if (typeof value !== 'string') {
      throw new CatalogError({ locale, key, reason: `expected a message string, found ${describe(value)}` })
    }
    // "a.b: x" beside "a: { b: y }" would otherwise keep whichever came last, in silence.
    if (messages.has(key)) throw new CatalogError({ locale, key, reason: 'defined twice' })
    messages.set(key, value)
  }
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list'
  if (value instanceof Date) return 'a date'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value} (${String(value)})`
}
