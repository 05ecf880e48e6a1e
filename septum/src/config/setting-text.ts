import type { FormSchema, JsonSchema } from '../contract/index.ts'

/** The JSON Schema types a typed value is read by; anything else is read the loose way. */
export type Expected = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object'

export type SettingReading =
  | { readonly ok: true; readonly value: unknown }
  /** `expected` names the type the text failed to be; `tooLarge` a number that cannot be stored as typed. */
  | { readonly ok: false; readonly problem: 'expected'; readonly expected: Expected }
  | { readonly ok: false; readonly problem: 'tooLarge' }

const TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object'])
const INTEGER = /^[+-]?\d+$/
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/
const NUMBER_TOKEN = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y
/** What may come right before a JSON number; after a letter, digits are part of a word. */
const BEFORE_NUMBER = /[\s,:[]/

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A setting typed by a person (in chat, at the command line), read by the type the plugin's schema gives its key: text stays text
 * (a phone number, an id), numbers are read strictly and must be finite, lists and objects are
 * JSON. With no single type to go by (no form, a union), it is JSON when it parses and text
 * otherwise — the bus strips the quotes off a single quoted word, so a value the reader quoted
 * stays text — and digits past Number.MAX_SAFE_INTEGER stay text too: such a number is an id far
 * more often than a quantity, and as a number it would be silently rounded.
 */
export function readSetting(text: string, rest: string, property: JsonSchema | undefined): SettingReading {
  const expected = expectedType(property)
  switch (expected) {
    case 'string':
      return { ok: true, value: text }
    case 'integer':
    case 'number':
      return numberOf(text, expected)
    case 'boolean': {
      const word = text.toLowerCase()
      return word === 'true' || word === 'false'
        ? { ok: true, value: word === 'true' }
        : { ok: false, problem: 'expected', expected }
    }
    case 'array':
    case 'object': {
      const items = isRecord(property?.items) ? expectedType(property.items) : undefined
      const parsed = preciseJson(text, items === 'string')
      if (parsed === 'tooLarge') return { ok: false, problem: 'tooLarge' }
      const fits = expected === 'array' ? Array.isArray(parsed?.value) : isRecord(parsed?.value)
      return parsed !== undefined && fits ? parsed : { ok: false, problem: 'expected', expected }
    }
    case undefined: {
      const tail = rest.trimEnd()
      if (tail.endsWith(`"${text}"`) || tail.endsWith(`'${text}'`)) return { ok: true, value: text }
      const parsed = preciseJson(text, false)
      if (parsed === 'tooLarge') return { ok: false, problem: 'tooLarge' }
      return parsed ?? { ok: true, value: text }
    }
  }
}

/** The JSON Schema of one key in a form: a property, or the one shape every union member agrees on. */
export function propertyOf(form: FormSchema, key: string): JsonSchema | undefined {
  if (!form.available) return undefined
  const { schema } = form
  if (isRecord(schema.properties)) {
    const property = schema.properties[key]
    return isRecord(property) ? property : undefined
  }
  const members = schema.anyOf ?? schema.oneOf
  if (!Array.isArray(members)) return undefined
  const shapes = new Set<string>()
  const found: JsonSchema[] = []
  for (const member of members) {
    const property = isRecord(member) && isRecord(member.properties) ? member.properties[key] : undefined
    if (!isRecord(property)) continue
    shapes.add(JSON.stringify({ type: property.type, items: property.items }))
    found.push(property)
  }
  return shapes.size === 1 ? found[0] : undefined
}

function expectedType(property: JsonSchema | undefined): Expected | undefined {
  if (property === undefined) return undefined
  if (typeof property.type === 'string')
    return TYPES.has(property.type) ? (property.type as Expected) : undefined
  if (property.type !== undefined) return undefined
  const values = Array.isArray(property.enum) ? property.enum : 'const' in property ? [property.const] : []
  if (values.length > 0 && values.every((value) => typeof value === 'string')) return 'string'
  return undefined
}

function numberOf(text: string, expected: 'integer' | 'number'): SettingReading {
  const trimmed = text.trim()
  if (!(expected === 'integer' ? INTEGER : NUMBER).test(trimmed)) {
    return { ok: false, problem: 'expected', expected }
  }
  const value = Number(trimmed)
  if (!Number.isFinite(value)) return { ok: false, problem: 'tooLarge' }
  if (INTEGER.test(trimmed) && !Number.isSafeInteger(value)) return { ok: false, problem: 'tooLarge' }
  return { ok: true, value }
}

/**
 * JSON.parse without losing a digit: a bare integer past the safe range is read as the text of its
 * digits (every bare number is, when `numbersAsText`), and a number that overflows to Infinity is
 * refused rather than stored as null. Undefined when the text is not JSON.
 */
function preciseJson(
  text: string,
  numbersAsText: boolean,
): { ok: true; value: unknown } | 'tooLarge' | undefined {
  let out = ''
  let index = 0
  let overflow = false
  while (index < text.length) {
    const char = text[index]!
    if (char === '"') {
      let end = index + 1
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      out += text.slice(index, end + 1)
      index = end + 1
      continue
    }
    NUMBER_TOKEN.lastIndex = index
    const token = (index === 0 || BEFORE_NUMBER.test(text[index - 1]!)) && NUMBER_TOKEN.exec(text)?.[0]
    if (token) {
      const value = Number(token)
      overflow ||= !Number.isFinite(value)
      const exact = !INTEGER.test(token) || Number.isSafeInteger(value)
      out += numbersAsText || !exact ? JSON.stringify(token) : token
      index += token.length
      continue
    }
    out += char
    index++
  }
  let value: unknown
  try {
    value = JSON.parse(out)
  } catch {
    return undefined
  }
  return overflow ? 'tooLarge' : { ok: true, value }
}
