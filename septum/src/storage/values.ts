import type { OperationSchema } from '../contract/module.ts'
import { StorageError } from './storage-error.ts'

/** Long enough for any sensible namespacing, short enough that keys stay keys. */
export const MAX_KEY_LENGTH = 512

/** A key is a non-empty string of at most MAX_KEY_LENGTH characters. */
export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0) {
    throw new StorageError(`a storage key must be a non-empty string, got ${describe(key)}`)
  }
  if (key.length > MAX_KEY_LENGTH) {
    throw new StorageError(
      `storage key "${key.slice(0, 40)}…" is longer than ${MAX_KEY_LENGTH} characters`,
      key,
    )
  }
  return key
}

/** A prefix may be empty (everything), but must be a string. */
export function checkPrefix(prefix: unknown): string {
  if (prefix === undefined) return ''
  if (typeof prefix !== 'string')
    throw new StorageError(`a storage prefix must be a string, got ${describe(prefix)}`)
  return prefix
}

/**
 * The JSON text of a value, refusing anything JSON would silently change or drop: undefined,
 * functions, symbols, BigInt, non-finite numbers, class instances (a Date, a Map) and cycles.
 */
export function encodeValue(key: string, value: unknown): string {
  const problem = jsonProblem(value, '', new Set())
  if (problem !== undefined) {
    throw new StorageError(`storage key "${key}": the value is not JSON: ${problem}`, key)
  }
  return JSON.stringify(value)
}

function jsonProblem(value: unknown, path: string, seen: Set<object>): string | undefined {
  const at = path === '' ? 'the value' : path
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined
    case 'number':
      return Number.isFinite(value) ? undefined : `${at} is ${value}, which JSON cannot hold`
    case 'undefined':
      return `${at} is undefined`
    case 'function':
    case 'symbol':
      return `${at} is a ${typeof value}`
    case 'bigint':
      return `${at} is a BigInt`
  }
  if (value === null) return undefined
  const object = value as object
  if (seen.has(object)) return `${at} refers back to itself (a cycle)`
  const proto = Object.getPrototypeOf(object)
  const isArray = Array.isArray(object)
  if (!isArray && proto !== Object.prototype && proto !== null) {
    const name = (proto as { constructor?: { name?: string } }).constructor?.name ?? 'an object'
    return `${at} is a ${name}; store plain objects, arrays and primitives (a Date as its ISO string)`
  }
  seen.add(object)
  const entries: [string, unknown][] = isArray
    ? (object as unknown[]).map((item, index) => [`[${index}]`, item])
    : Object.entries(object).map(([name, item]) => [path === '' ? name : `.${name}`, item])
  for (const [step, item] of entries) {
    const problem = jsonProblem(item, `${path}${step}`, seen)
    if (problem !== undefined) return problem
  }
  seen.delete(object)
  return undefined
}

/** Parses stored JSON text back into its value. */
export function decodeValue(text: string): unknown {
  return JSON.parse(text)
}

type Validation<T> =
  | { readonly value: T; readonly issues?: undefined }
  | { readonly issues: readonly { readonly message: string }[] }

/** Checks a value against a Standard Schema when one is given; answers what the schema output. */
export async function checkSchema<T>(
  key: string,
  value: unknown,
  schema: OperationSchema<T> | undefined,
  when: 'read' | 'write',
): Promise<T> {
  if (schema === undefined) return value as T
  return outcome(key, await schema['~standard'].validate(value), when)
}

/** The same check inside a transaction, where nothing may await: an async schema is refused. */
export function checkSchemaNow<T>(
  key: string,
  value: unknown,
  schema: OperationSchema<T> | undefined,
  when: 'read' | 'write',
): T {
  if (schema === undefined) return value as T
  const result = schema['~standard'].validate(value)
  if (result instanceof Promise) {
    result.catch(() => undefined)
    throw new StorageError(
      `storage key "${key}": the schema validates asynchronously, which a transaction cannot wait for`,
      key,
    )
  }
  return outcome(key, result, when)
}

function outcome<T>(key: string, result: Validation<T>, when: 'read' | 'write'): T {
  if (result.issues === undefined) return result.value
  const issues = result.issues.map((issue) => issue.message).join('; ')
  const verb = when === 'write' ? 'refused the value to write' : 'refused the stored value'
  throw new StorageError(`storage key "${key}": the schema ${verb}: ${issues}`, key)
}

/** The bytes an entry counts against the quota: its key and its JSON text, in UTF-8. */
export function entryBytes(key: string, json: string): number {
  return Buffer.byteLength(key, 'utf8') + Buffer.byteLength(json, 'utf8')
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  return typeof value === 'string' ? 'an empty string' : typeof value
}
