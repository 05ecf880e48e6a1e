/**
 * A marshalled value made whole again on the side that receives it (see marshal.ts): handles become
 * functions that call back across, marks become the errors, dates, signals and requests they stand
 * for, and shared values are this side's kept copies.
 */

import type { HandleMark } from './call-kinds.ts'
import { hostTranslate } from './host-translate.ts'
import { type HttpMark, httpOf } from './http-marks.ts'
import {
  BOUND,
  CONSTANT,
  DATE,
  errorOf,
  FAULT,
  type FaultMark,
  HANDLE,
  keyIn,
  LATE,
  LAYER,
  MESSAGE,
  SHARED,
  SIGNAL,
  TRANSLATE,
} from './marks.ts'
import { crossesAsIs } from './marshal.ts'
import type { PortableTranslate } from './portable-translate.ts'

/** Turns handles back into callable functions, `proxy` making each; faults back into errors. */
export interface Unmarshal {
  readonly proxy: (mark: HandleMark, path: readonly string[]) => unknown
  /** This side's copies of the other side's shared values, by id; without it none may cross. */
  readonly shared?: Map<number, unknown>
  /** Called on each object rebuilt: a side may adjust a shape it knows (a storage's transaction). */
  readonly adapt?: (value: Record<string, unknown>) => Record<string, unknown>
}

export function unmarshal(value: unknown, how: Unmarshal, path: readonly string[] = []): unknown {
  return rebuild(
    value,
    how,
    path.reduce<Path>((up, key) => ({ up, key }), undefined),
  )
}

/** Where a value sits, kept as links and made a list only for a handle (most values hold none). */
type Path = { readonly up: Path; readonly key: string } | undefined

function listOf(path: Path): string[] {
  const keys: string[] = []
  for (let at = path; at !== undefined; at = at.up) keys.unshift(at.key)
  return keys
}

/** The mark an object is, read off its first key (every mark's comes first), or undefined for data. */
function markOf(value: object): string | undefined {
  for (const key in value) {
    return key.charCodeAt(0) === 0xa7 && key.charCodeAt(1) !== 0xa7 ? key : undefined
  }
  return undefined
}

function rebuild(value: unknown, how: Unmarshal, path: Path): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item) => rebuild(item, how, path))
  if (crossesAsIs(value) || value instanceof Date) return value
  const mark = markOf(value)
  if (mark !== undefined) return markValue(mark, value, how, path)
  const out: Record<string, unknown> = {}
  for (const crossed in value) {
    const key = keyIn(crossed)
    const member = (value as Record<string, unknown>)[crossed]
    const at = { up: path, key }
    if (typeof member === 'object' && member !== null && markOf(member) === LATE) {
      defineLate(out, key, member as LateMark, how, at)
    } else out[key] = rebuild(member, how, at)
  }
  return how.adapt ? how.adapt(out) : out
}

function markValue(mark: string, value: object, how: Unmarshal, path: Path): unknown {
  switch (mark) {
    case HANDLE:
      return handleOf(value as HandleMark, how, path)
    case DATE:
      return new Date((value as { [DATE]: number })[DATE])
    case SHARED:
      return sharedOf(value as SharedMark, how, path)
    case LAYER: {
      const { [LAYER]: base, own } = value as LayerMark
      const layered = { ...(rebuild(base, how, path) as object), ...(rebuild(own, how, path) as object) }
      return how.adapt ? how.adapt(layered) : layered
    }
    case TRANSLATE: {
      const { [TRANSLATE]: portable, call } = value as { [TRANSLATE]: unknown; call: HandleMark }
      const fallback = how.proxy(call, listOf(path)) as Parameters<typeof hostTranslate>[1]
      return hostTranslate(rebuild(portable, how, path) as PortableTranslate, fallback)
    }
    case CONSTANT:
      return constantOf(value as ConstantMark, how, path)
    case SIGNAL:
      return signalOf(value as SignalMark, how)
    case MESSAGE:
      return httpOf(value as HttpMark)
    case FAULT:
      return errorOf(value as FaultMark)
    default:
      throw new Error(`a value crossed with a mark this side does not know: ${mark}`)
  }
}

/** A handle made callable; one with bound arguments passes them first. */
function handleOf(mark: HandleMark, how: Unmarshal, path: Path): unknown {
  const fn = how.proxy(mark, listOf(path)) as (...args: unknown[]) => unknown
  if (!(BOUND in mark)) return fn
  const bound = rebuild((mark as HandleMark & { [BOUND]: unknown })[BOUND], how, undefined) as unknown[]
  return (...args: unknown[]) => fn(...bound, ...args)
}

interface SharedMark {
  readonly [SHARED]: number
  readonly value?: unknown
}

interface LayerMark {
  readonly [LAYER]: unknown
  readonly own: Record<string, unknown>
}

/** A shared value: its copy, kept at its first crossing. */
function sharedOf(mark: SharedMark, how: Unmarshal, path: Path): unknown {
  const id = mark[SHARED]
  if (how.shared === undefined) throw new Error('a shared value crossed to a side that keeps none')
  if ('value' in mark) {
    const copy = rebuild(mark.value, how, path)
    how.shared.set(id, copy)
    return copy
  }
  if (!how.shared.has(id)) throw new Error(`shared value ${id} is not known on this side`)
  return how.shared.get(id)
}

interface ConstantMark {
  readonly [CONSTANT]: unknown
  readonly throws?: true
}

/** A marked function's answer made a function again: each call gets its own copy, or the error. */
function constantOf(mark: ConstantMark, how: Unmarshal, path: Path): () => unknown {
  if (mark.throws) {
    const fault = mark[CONSTANT] as FaultMark
    return () => {
      throw errorOf(fault)
    }
  }
  const value = mark[CONSTANT]
  return () => rebuild(structuredClone(value), how, path)
}

interface SignalMark {
  readonly [SIGNAL]: boolean
  readonly listen: unknown
}

/** A signal of this side's own, aborted when the other side's is. */
function signalOf(mark: SignalMark, how: Unmarshal): AbortSignal {
  const controller = new AbortController()
  if (mark[SIGNAL]) controller.abort()
  else {
    const listen = rebuild(mark.listen, how, undefined) as (notify: () => void) => unknown
    void Promise.resolve(listen(() => controller.abort())).catch(() => undefined)
  }
  return controller.signal
}

interface LateMark {
  readonly [LATE]: unknown
  readonly value?: unknown
}

/** The members of an object that refreshLate reads again. */
const LATE_MEMBERS = new WeakMap<object, (() => Promise<void>)[]>()

function defineLate(
  out: Record<string, unknown>,
  key: string,
  mark: LateMark,
  how: Unmarshal,
  path: Path,
): void {
  let current = rebuild(mark.value, how, path)
  const read = rebuild(mark[LATE], how, path) as () => Promise<unknown>
  Object.defineProperty(out, key, { enumerable: true, configurable: true, get: () => current })
  const refresh = async () => {
    try {
      current = await read()
    } catch {
      // Still not readable: it keeps what it answered before.
    }
  }
  LATE_MEMBERS.set(out, [...(LATE_MEMBERS.get(out) ?? []), refresh])
}

/** Reads again every getter of an object that crossed (see lateMark): once its spore has started. */
export async function refreshLate(value: unknown): Promise<void> {
  if (typeof value !== 'object' || value === null) return
  await Promise.all((LATE_MEMBERS.get(value) ?? []).map((refresh) => refresh()))
}
