/**
 * A marshalled value made whole again on the side that receives it (see marshal.ts): handles become
 * functions that call back across, marks become the errors, dates, signals and requests they stand
 * for, and shared values are this side's kept copies.
 */

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
import { crossesAsIs, type HandleMark } from './marshal.ts'
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
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item) => unmarshal(item, how, path))
  if (crossesAsIs(value)) return value
  if (HANDLE in value) return handleOf(value as HandleMark, how, path)
  if (DATE in value) return new Date((value as { [DATE]: number })[DATE])
  if (SHARED in value) return sharedOf(value as SharedMark, how, path)
  if (LAYER in value) {
    const { [LAYER]: base, own } = value as LayerMark
    const layered = { ...(unmarshal(base, how, path) as object), ...(unmarshal(own, how, path) as object) }
    return how.adapt ? how.adapt(layered) : layered
  }
  if (TRANSLATE in value) {
    const mark = value as { [TRANSLATE]: unknown; call: HandleMark }
    const portable = unmarshal(mark[TRANSLATE], how, path) as PortableTranslate
    return hostTranslate(portable, how.proxy(mark.call, path) as Parameters<typeof hostTranslate>[1])
  }
  if (CONSTANT in value) return constantOf(value as ConstantMark, how, path)
  if (SIGNAL in value) return signalOf(value as SignalMark, how)
  if (MESSAGE in value) return httpOf(value as HttpMark)
  if (FAULT in value) return errorOf(value as FaultMark)
  if (value instanceof Date) return value
  const out: Record<string, unknown> = {}
  for (const [crossed, member] of Object.entries(value)) {
    const key = keyIn(crossed)
    if (isLate(member)) defineLate(out, key, member, how, [...path, key])
    else out[key] = unmarshal(member, how, [...path, key])
  }
  return how.adapt ? how.adapt(out) : out
}

/** A handle made callable; one with bound arguments passes them first. */
function handleOf(mark: HandleMark, how: Unmarshal, path: readonly string[]): unknown {
  const fn = how.proxy(mark, path) as (...args: unknown[]) => unknown
  if (!(BOUND in mark)) return fn
  const bound = unmarshal((mark as HandleMark & { [BOUND]: unknown })[BOUND], how) as unknown[]
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
function sharedOf(mark: SharedMark, how: Unmarshal, path: readonly string[]): unknown {
  const id = mark[SHARED]
  if (how.shared === undefined) throw new Error('a shared value crossed to a side that keeps none')
  if ('value' in mark) {
    const copy = unmarshal(mark.value, how, path)
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
function constantOf(mark: ConstantMark, how: Unmarshal, path: readonly string[]): () => unknown {
  if (mark.throws) {
    const fault = mark[CONSTANT] as FaultMark
    return () => {
      throw errorOf(fault)
    }
  }
  const value = mark[CONSTANT]
  return () => unmarshal(structuredClone(value), how, path)
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
    const listen = unmarshal(mark.listen, how) as (notify: () => void) => unknown
    void Promise.resolve(listen(() => controller.abort())).catch(() => undefined)
  }
  return controller.signal
}

interface LateMark {
  readonly [LATE]: unknown
  readonly value?: unknown
}

function isLate(value: unknown): value is LateMark {
  return typeof value === 'object' && value !== null && LATE in value
}

/** The members of an object that refreshLate reads again. */
const LATE_MEMBERS = new WeakMap<object, (() => Promise<void>)[]>()

function defineLate(
  out: Record<string, unknown>,
  key: string,
  mark: LateMark,
  how: Unmarshal,
  path: readonly string[],
): void {
  let current = unmarshal(mark.value, how, path)
  const read = unmarshal(mark[LATE], how, path) as () => Promise<unknown>
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
