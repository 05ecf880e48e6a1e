import type { SporeTranslateOptions } from '../i18n/spore-translate.ts'

/**
 * What the core marks so a context crosses cheaply at every message: the part that never changes
 * crosses once per host and then as its id, and a handler's context crosses as that part plus the
 * few members the message adds. Inline nothing changes: the marks are read only when a value
 * crosses to a host. Nothing imported at run time, so the message path marks what it builds at no cost.
 */

/** One kind of mark: what the core noted about an object it made, read back when the object crosses. */
function markKind<V>() {
  const marks = new WeakMap<object, V>()
  return {
    mark: <T extends object>(value: T, noted: V): T => {
      marks.set(value, noted)
      return value
    },
    of: (value: object): V | undefined => marks.get(value),
  }
}

/** Objects that cross whole once per host, then as their id (a spore's start context, capabilities). */
const SHARED = new WeakSet<object>()

/**
 * Marks an object the core never changes once made: the host keeps its copy, so later crossings
 * send only its id. Its members are read when it first crosses; a member changed later is not seen.
 */
export function markShared<T extends object>(value: T): T {
  SHARED.add(value)
  return value
}

export function isShared(value: object): boolean {
  return SHARED.has(value)
}

/** A context made as `{ ...base, ...added }`: the base it was spread from. */
const layers = markKind<object>()

/**
 * Marks `value` as `base` (shared) plus its own members: it crosses as the base's id and only the
 * members that differ from the base's. `value` must hold every member of `base`, as a spread does.
 */
export function markLayered<T extends object>(value: T, base: object): T {
  SHARED.add(base)
  return layers.mark(value, base)
}

export const baseOf = layers.of

/** A function that is `fn` called on `owner` with `args` first (a handler's `reply`, bound to its conversation). */
export interface Bound {
  readonly fn: (...args: never[]) => unknown
  readonly owner?: unknown
  readonly args: readonly unknown[]
}

const bound = markKind<Bound>()

/**
 * Marks `closure` as `bound.fn` with `bound.args` first: a new closure per message would cross as a
 * new handle each time (a proxy to make, a release to send back); this one crosses as `fn`'s handle
 * and its arguments. `closure` must do exactly that call.
 */
export const markBound = bound.mark
export const boundOf = bound.of

/** What a spore's `t` renders from: a host given the catalogues' sources renders it the same way. */
const translates = markKind<SporeTranslateOptions>()
export const markTranslate = translates.mark
export const translateSourceOf = translates.of
