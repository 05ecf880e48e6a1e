/**
 * How a function that crosses is called by the side holding its proxy: awaited, answered at once
 * (the caller blocks), or told with no answer. A septum context mixes synchronous members (`t`,
 * `has`, `rhiza`) with asynchronous ones (`reply`, `storage.get`), so the kind is read off the
 * member's name and the shape it sits in, or off a mark the core put on it.
 */
import { HANDLE } from './marks.ts'

/**
 * How the side holding a handle's proxy calls it. `ahead` is an asynchronous call its caller hears
 * accepted at once, while the call it is made serving runs: a handler's reply (see markAhead).
 */
export type CallKind = 'async' | 'sync' | 'fire' | 'ahead'

export interface HandleMark {
  readonly [HANDLE]: number
  readonly kind: CallKind
}

/** Members a context answers synchronously, wherever they sit. */
const SYNC_MEMBERS = new Set([
  't',
  'has',
  'rhiza',
  'requireCapability',
  'capabilitiesOf',
  'listPlugins',
  'availableLocales',
  // A spore's own members the core calls synchronously: its schema, and a migration inside a transaction.
  'safeParse',
  'toJsonSchema',
  'up',
])

/** One kind of mark on a function: set where it is made, read when it crosses. */
function flag() {
  const marked = new WeakSet<object>()
  return {
    mark: <T extends object>(fn: T): T => {
      marked.add(fn)
      return fn
    },
    has: (fn: object): boolean => marked.has(fn),
  }
}

/** Objects whose functions are all asynchronous wherever they sit: a rhiza's api handed across. */
const APIS = new WeakSet<object>()

export function markApi<T>(value: T): T {
  if (typeof value === 'object' && value !== null) APIS.add(value)
  return value
}

/** Functions the other side must call synchronously: a storage transaction's work. */
const syncCallbacks = flag()
export const markSync = syncCallbacks.mark
export const isSyncCallback = syncCallbacks.has

/**
 * Functions whose call the other side answers itself, at once, while the call it is made serving
 * still runs (a handler's reply): it then crosses with that call's answer, or sooner, and a refusal
 * fails the call it was made serving, as the same refusal thrown and not caught would.
 */
const ahead = flag()
export const markAhead = ahead.mark
export const isAhead = ahead.has

/**
 * Functions whose answer never changes (a schema's JSON Schema): called when they cross, as the
 * value (or the error) they answered, so the other side answers without a call back and never
 * blocks waiting on this one.
 */
const constants = flag()
export const markConstant = constants.mark
export const isConstant = constants.has
const LOGGER_LINES = new Set(['debug', 'info', 'warn', 'error'])

export function isApi(value: object): boolean {
  return APIS.has(value)
}

/** The kind of the function at `key` of `parent`, read off the septum shapes. */
export function kindOf(key: string | undefined, parent: object | undefined): CallKind {
  if (key === undefined || parent === undefined) return 'async'
  const shape = parent as Record<string, unknown>
  const logger = typeof shape.child === 'function' && typeof shape.info === 'function'
  if (logger && LOGGER_LINES.has(key)) return 'fire'
  if (logger && key === 'child') return 'sync'
  // A connection report is told, never answered: a hypha calls it from wherever it notices.
  if (typeof shape.up === 'function' && typeof shape.lost === 'function') return 'fire'
  // Capabilities answer at once; a storage or a schedule also lists, but never has has().
  if (typeof shape.has === 'function' && typeof shape.list === 'function') return 'sync'
  return SYNC_MEMBERS.has(key) ? 'sync' : 'async'
}
