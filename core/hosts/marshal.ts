/**
 * How a value crosses between the core and a host. Data crosses as data; a function crosses as a
 * handle the other side calls back through (its kind read as call-kinds.ts says), so a context
 * keeps every member it has inline. The other side rebuilds it with unmarshal (unmarshal.ts).
 */

import { isAhead, isApi, isConstant, isSyncCallback, kindOf } from './call-kinds.ts'
import { isSettled } from './http-marks.ts'
import {
  BOUND,
  CONSTANT,
  DATE,
  FAULT,
  type FaultMark,
  faultOf,
  HANDLE,
  keyOut,
  LATE,
  LAYER,
  SHARED,
  SIGNAL,
  TRANSLATE,
} from './marks.ts'
import { portableTranslate } from './portable-translate.ts'
import { baseOf, boundOf, isShared } from './shared-values.ts'

/**
 * `context` reads the septum shapes (a logger's lines are fired, a capabilities' has/list answered
 * at once); `api` makes every function asynchronous, as a rhiza's api is across a host; `sync`
 * makes every one synchronous: what is handed to a synchronous call (a storage transaction's view)
 * is used while its caller waits, and the callee cannot await it.
 */
export type MarshalMode = 'context' | 'api' | 'sync'

/** Where an exported function is kept while the other side may call it. */
export interface HandleTable {
  /** `owner` is what the function is called on: a spore's methods keep their `this`. */
  export(fn: (...args: unknown[]) => unknown, owner: unknown): number
}

/** Where the ids of shared values are kept while the other side holds their copies (see markShared). */
export interface ShareTable {
  /** The id `value` crosses under, and whether the other side already holds its copy. */
  idOf(value: object): { readonly id: number; readonly known: boolean }
}

/**
 * Whether a marshalled value survives JSON exactly: then it crosses as a string, which costs a
 * fraction of a structured clone. Anything JSON would change (a Map, a NaN, an undefined in a
 * list) clears `plain`, and the message is cloned as before.
 */
export interface Wire {
  plain: boolean
}

export interface MarshalOptions {
  readonly mode?: MarshalMode
  /** Lets values marked shared cross as their id; without it every value crosses whole. */
  readonly share?: ShareTable
  readonly wire?: Wire
}

/** Structured-clone types that cross as they are (a Date crosses as a mark, so JSON can carry it). */
export function crossesAsIs(value: object): boolean {
  return (
    value instanceof RegExp ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof Blob
  )
}

export function marshal(value: unknown, table: HandleTable, options: MarshalOptions = {}): unknown {
  const { mode = 'context', share, wire = { plain: true } } = options
  return walk(value, { table, mode, share, wire, seen: new Set() })
}

interface Walk {
  readonly table: HandleTable
  readonly mode: MarshalMode
  readonly share: ShareTable | undefined
  readonly wire: Wire
  readonly seen: Set<object>
}

/** `key` and `parent` say where a value sits: a function's kind is read off them, and its `this`. */
function walk(value: unknown, at: Walk, key?: string, parent?: object): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      if (!Number.isFinite(value) || Object.is(value, -0)) at.wire.plain = false
      return value
    case 'function':
      return functionMark(value as (...args: unknown[]) => unknown, at, key, parent)
    case 'object':
      break
    case 'undefined':
      // Dropped from an object as before; in a list, listOut tells the wire.
      return value
    default:
      // A bigint, a symbol: JSON would refuse or drop them; a clone says what it says.
      at.wire.plain = false
      return value
  }
  if (value === null) return value
  if (value instanceof Date) {
    const time = value.getTime()
    if (Number.isFinite(time)) return { [DATE]: time }
    at.wire.plain = false
    return value
  }
  if (value instanceof Error) return faultMark(value, at.wire)
  if (crossesAsIs(value) || isSettled(value)) {
    at.wire.plain = false
    return value
  }
  if (value instanceof AbortSignal) return signalMark(value, at)
  // Shared values keep their first shape: only a context's (mode), so an api never reads as one.
  if (at.share !== undefined && at.mode === 'context') {
    const base = baseOf(value)
    if (base !== undefined) return layerMark(value, base, at)
    if (isShared(value)) {
      const { id, known } = at.share.idOf(value)
      if (known) return { [SHARED]: id }
      return { [SHARED]: id, value: membersOut(value, at) }
    }
  }
  return membersOut(value, at)
}

/** An object's or a list's members, each walked. */
function membersOut(value: object, at: Walk): unknown {
  // A cycle cannot be cloned as a tree; the repeated branch crosses as nothing.
  if (at.seen.has(value)) return undefined
  at.seen.add(value)
  if (isApi(value)) at = { ...at, mode: 'api' }
  try {
    return Array.isArray(value) ? listOut(value, at) : objectOut(value, at)
  } finally {
    at.seen.delete(value)
  }
}

function listOut(list: readonly unknown[], at: Walk): unknown[] {
  const out = new Array<unknown>(list.length)
  for (let i = 0; i < list.length; i++) {
    if (!(i in list)) {
      at.wire.plain = false
      continue
    }
    const item = walk(list[i], at, undefined, list)
    if (item === undefined) at.wire.plain = false
    out[i] = item
  }
  return out
}

function objectOut(value: object, at: Walk): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of membersOf(value)) {
    const inner = at.mode === 'context' && key === 'api' ? { ...at, mode: 'api' as const } : at
    if (inner.mode === 'api' && typeof Object.getOwnPropertyDescriptor(value, key)?.get === 'function') {
      out[keyOut(key)] = lateMark(value, key, inner)
      continue
    }
    let member: unknown
    try {
      member = (value as Record<string, unknown>)[key]
    } catch {
      continue
    }
    if (member === undefined) continue
    out[keyOut(key)] = walk(member, inner, key, value)
  }
  return out
}

function functionMark(
  value: (...args: unknown[]) => unknown,
  at: Walk,
  key: string | undefined,
  parent: object | undefined,
): unknown {
  if (isConstant(value)) {
    try {
      return { [CONSTANT]: walk(value.call(parent), at, undefined, parent) }
    } catch (error) {
      return { [CONSTANT]: faultMark(error, at.wire), throws: true }
    }
  }
  const kind =
    isSyncCallback(value) || at.mode === 'sync' ? 'sync' : at.mode === 'api' ? 'async' : kindOf(key, parent)
  if (kind === 'sync' && at.share !== undefined && at.mode === 'context') {
    const portable = portableTranslate(value)
    if (portable !== undefined)
      return translateMark({ translate: value, portable, share: at.share, parent }, at)
  }
  const bound = boundOf(value)
  if (bound !== undefined) {
    const args = walk(bound.args, at)
    const id = at.table.export(bound.fn as (...args: unknown[]) => unknown, bound.owner)
    return { [HANDLE]: id, kind: isAhead(bound.fn) ? 'ahead' : kind, [BOUND]: args }
  }
  return { [HANDLE]: at.table.export(value, parent), kind }
}

/**
 * A spore's `t`: what its host renders it from, shared (once per host, locale and catalogues), and
 * a handle to the core's own for the renders made before the host has loaded its translator.
 */
function translateMark(
  of: {
    readonly translate: (...args: unknown[]) => unknown
    readonly portable: object
    readonly share: ShareTable
    readonly parent: object | undefined
  },
  at: Walk,
) {
  const { id, known } = of.share.idOf(of.portable)
  if (known) return { [SHARED]: id }
  const call = { [HANDLE]: at.table.export(of.translate, of.parent), kind: 'sync' }
  return { [SHARED]: id, value: { [TRANSLATE]: walk(of.portable, at), call } }
}

/** An error as a mark; one whose code or data JSON would change crosses as a clone. */
function faultMark(error: unknown, wire: Wire): FaultMark {
  const mark = faultOf(error)
  const { code, data } = mark[FAULT]
  if (data !== undefined || !(code === undefined || typeof code === 'string' || Number.isFinite(code))) {
    wire.plain = false
  }
  return mark
}

/** A context spread from a shared base: the base's id, and the members it adds or replaces. */
function layerMark(value: object, base: object, at: Walk): unknown {
  // The base first: the other side rebuilds it first, and a shared value meets its copy before its id.
  const shared = walk(base, at)
  const own: Record<string, unknown> = {}
  const record = value as Record<string, unknown>
  const from = base as Record<string, unknown>
  for (const key of Object.keys(value)) {
    const member = record[key]
    if (member === undefined || member === from[key]) continue
    own[keyOut(key)] = walk(member, at, key, value)
  }
  return { [LAYER]: shared, own }
}

/** Own enumerable keys, and for a class instance its methods too (a store's surface is a class). */
function membersOf(value: object): readonly string[] {
  const first = Object.getPrototypeOf(value)
  if (first === Object.prototype || first === null) return Object.keys(value)
  const keys = new Set(Object.keys(value))
  for (let proto = first; proto && proto !== Object.prototype; ) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || keys.has(key)) continue
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)
      if (typeof descriptor?.value === 'function') keys.add(key)
    }
    proto = Object.getPrototypeOf(proto)
  }
  return [...keys]
}

/** A signal crosses as its state and a handle the other side subscribes through to hear its abort. */
function signalMark(signal: AbortSignal, at: Walk): unknown {
  const listen = (notify: () => unknown) => {
    signal.addEventListener('abort', () => void Promise.resolve(notify()).catch(() => undefined), {
      once: true,
    })
  }
  return { [SIGNAL]: signal.aborted, listen: walk(listen, at) }
}

/**
 * A getter (a rhiza's `get api()` that answers only once start() has run) crosses as what it answers
 * now, if anything, and a handle to read it again: the other side's object keeps the member, and
 * refreshLate reads it anew once the spore has started.
 */
function lateMark(owner: object, key: string, at: Walk): unknown {
  const read = () => (owner as Record<string, unknown>)[key]
  let value: unknown
  try {
    value = walk(read(), at, key, owner)
  } catch {
    value = undefined
  }
  return {
    [LATE]: walk(read, at),
    ...(value === undefined ? {} : { value }),
  }
}
