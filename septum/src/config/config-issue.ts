import type { ConfigIssue } from '../contract/config.ts'
import type { TranslatableRef } from '../contract/i18n.ts'

/**
 * The fields every Zod issue has. Structural on purpose: a plugin's issues come from its own copy
 * of Zod, so they are never instances of septum's.
 */
export interface RawZodIssue {
  readonly code?: string
  readonly path: readonly PropertyKey[]
  readonly message: string
}

type IssueFields = Readonly<Record<string, unknown>>

interface CommonMessage {
  readonly key: string
  readonly params: Readonly<Record<string, unknown>>
}

const SIZED_ORIGINS: ReadonlySet<string> = new Set(['string', 'array', 'set', 'map', 'file'])

/**
 * Maps one Zod issue onto a ConfigIssue. A `custom` issue (from `.refine()` / `.check()`) carries
 * its own message as a key in the declaring spore's domain; the seven structural codes get a
 * `common` key with the values it interpolates; anything else keeps only its English message.
 */
export function toConfigIssue(issue: RawZodIssue): ConfigIssue {
  const fields = issue as unknown as IssueFields
  const base = { path: issue.path.map(pathSegment), message: issue.message }
  if (issue.code === 'custom') {
    const params = fields.params
    return isRecord(params)
      ? { ...base, messageKey: issue.message, params }
      : { ...base, messageKey: issue.message }
  }
  const common = commonMessage(issue.code, fields)
  if (common === undefined) return base
  const messageKey: TranslatableRef = { domain: 'common', key: common.key }
  return { ...base, messageKey, params: common.params }
}

function commonMessage(code: string | undefined, issue: IssueFields): CommonMessage | undefined {
  switch (code) {
    case 'invalid_type':
      return invalidType(issue)
    case 'too_small':
      return outOfBounds('too_small', issue)
    case 'too_big':
      return outOfBounds('too_big', issue)
    case 'invalid_format':
      return invalidFormat(issue)
    case 'invalid_value': {
      const values = Array.isArray(issue.values) ? issue.values : []
      return {
        key: 'config.invalid_value',
        params: { values: values.map(quoted).join(', '), count: values.length },
      }
    }
    case 'not_multiple_of':
      return { key: 'config.not_multiple_of', params: { divisor: issue.divisor } }
    case 'unrecognized_keys': {
      const keys = Array.isArray(issue.keys) ? issue.keys.map(String) : []
      return { key: 'config.unrecognized_keys', params: { keys: keys.join(', '), count: keys.length } }
    }
    default:
      return undefined
  }
}

// Zod only attaches `input` when asked (`reportInput`), so without it the received type is unknown.
// The input itself never reaches params: it may be a credential.
function invalidType(issue: IssueFields): CommonMessage {
  const expected = String(issue.expected ?? 'unknown')
  const received = typeof issue.received === 'string' ? issue.received : receivedType(issue)
  if (received === undefined) return { key: 'config.invalid_type.expected', params: { expected } }
  if (received === 'undefined') return { key: 'config.invalid_type.missing', params: { expected } }
  return { key: 'config.invalid_type.received', params: { expected, received } }
}

function receivedType(issue: IssueFields): string | undefined {
  if (!Object.hasOwn(issue, 'input')) return undefined
  const input = issue.input
  if (input === null) return 'null'
  if (Array.isArray(input)) return 'array'
  if (typeof input === 'number') return Number.isNaN(input) ? 'nan' : 'number'
  if (typeof input !== 'object') return typeof input
  const prototype: unknown = Object.getPrototypeOf(input)
  if (prototype === Object.prototype || prototype === null) return 'object'
  return input.constructor?.name || 'object'
}

function outOfBounds(side: 'too_small' | 'too_big', issue: IssueFields): CommonMessage {
  const limitName = side === 'too_small' ? 'minimum' : 'maximum'
  const origin = String(issue.origin ?? 'number')
  const exact = issue.exact === true
  // Zod reads an absent `inclusive` as a strict bound, as its own English message does.
  let inclusive = issue.inclusive === true
  let limit = issue[limitName]
  let shape: string
  if (SIZED_ORIGINS.has(origin)) {
    shape = exact ? 'size_exact' : 'size'
    // Sizes are worded "at least / at most n", so a strict bound on a count moves by one.
    if (!exact && !inclusive && typeof limit === 'number') {
      limit = side === 'too_small' ? limit + 1 : limit - 1
      inclusive = true
    }
  } else {
    const kind = origin === 'date' ? 'date' : 'number'
    shape = inclusive || exact ? kind : `${kind}_exclusive`
  }
  return { key: `config.${side}.${shape}`, params: { origin, [limitName]: limit, inclusive, exact } }
}

const FORMAT_DETAIL: Readonly<Record<string, string>> = {
  starts_with: 'prefix',
  ends_with: 'suffix',
  includes: 'includes',
  regex: 'pattern',
}

function invalidFormat(issue: IssueFields): CommonMessage {
  const format = String(issue.format ?? 'unknown')
  const detail = FORMAT_DETAIL[format]
  if (detail !== undefined && typeof issue[detail] === 'string') {
    return { key: `config.invalid_format.${format}`, params: { format, [detail]: issue[detail] } }
  }
  return { key: 'config.invalid_format.generic', params: { format } }
}

function pathSegment(segment: PropertyKey): string | number {
  return typeof segment === 'symbol' ? String(segment) : segment
}

// Strings are quoted so "3" and 3 stay distinguishable in a rendered list.
function quoted(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
