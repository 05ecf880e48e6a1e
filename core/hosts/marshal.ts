/**
 * How a value crosses between the core and a host. Data crosses as a structured clone; a function
 * crosses as a handle the other side calls back through, so a context keeps every member it has
 * inline. How a handle is called (awaited, answered at once, or not answered at all) is read off
 * the shape it sits in, since a septum context mixes synchronous members (`t`, `has`, `rhiza`) with
 * asynchronous ones (`reply`, `storage.get`) and a spore must not be able to tell the difference.
 */

/** The key that marks a handle in a marshalled value: no spore data uses a NUL in a key. */
export const HANDLE = '\u0000fn'
/** The key that marks an error in a marshalled value, so its name, message and code survive. */
export const FAULT = '\u0000err'
/** The key that marks a function crossing as the value it answers (see markConstant). */
export const CONSTANT = '\u0000const'
/** The key that marks an AbortSignal: whether it is aborted, and how to hear when it is. */
export const SIGNAL = '\u0000signal'
/** The key that marks a getter of a spore's instance, read again once it has started (see refreshLate). */
export const LATE = '\u0000late'
/** The key that marks a Request or a Response, read whole (see settle). */
export const MESSAGE = '\u0000http'

/** How the side holding a handle's proxy calls it. */
export type CallKind = 'async' | 'sync' | 'fire'

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

/** Objects whose functions are all asynchronous wherever they sit: a rhiza's api handed across. */
const APIS = new WeakSet<object>()
/** Functions the other side must call synchronously: a storage transaction's work. */
const SYNC_CALLBACKS = new WeakSet<object>()

export function markApi<T>(value: T): T {
  if (typeof value === 'object' && value !== null) APIS.add(value)
  return value
}

export function markSync<T extends object>(fn: T): T {
  SYNC_CALLBACKS.add(fn)
  return fn
}

/** Functions called once where they are, crossing as the value (or the error) they answered. */
const CONSTANTS = new WeakSet<object>()

/**
 * Marks a function whose answer never changes (a schema's JSON Schema): it is called when it
 * crosses, so the other side answers it without a call back, and never blocks waiting on this one.
 */
export function markConstant<T extends object>(fn: T): T {
  CONSTANTS.add(fn)
  return fn
}
const LOGGER_LINES = new Set(['debug', 'info', 'warn', 'error'])

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

/** Structured-clone types that cross as they are. */
function crossesAsIs(value: object): boolean {
  return (
    value instanceof Date ||
    value instanceof RegExp ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof Blob
  )
}

export function marshal(value: unknown, table: HandleTable, mode: MarshalMode = 'context'): unknown {
  return walk(value, { table, mode, seen: new Set(), key: undefined, parent: undefined })
}

interface Walk {
  readonly table: HandleTable
  readonly mode: MarshalMode
  readonly seen: Set<object>
  readonly key: string | undefined
  readonly parent: object | undefined
}

function walk(value: unknown, at: Walk): unknown {
  if (typeof value === 'function' && CONSTANTS.has(value)) {
    try {
      return { [CONSTANT]: walk((value as () => unknown).call(at.parent), { ...at, key: undefined }) }
    } catch (error) {
      return { [CONSTANT]: faultOf(error), throws: true }
    }
  }
  if (typeof value === 'function') {
    const kind =
      SYNC_CALLBACKS.has(value) || at.mode === 'sync'
        ? 'sync'
        : at.mode === 'api'
          ? 'async'
          : kindOf(at.key, at.parent)
    return { [HANDLE]: at.table.export(value as (...args: unknown[]) => unknown, at.parent), kind }
  }
  if (typeof value !== 'object' || value === null) return value
  if (value instanceof Error) return faultOf(value)
  if (crossesAsIs(value)) return value
  if (value instanceof AbortSignal) return signalMark(value, at)
  // A cycle cannot be cloned as a tree; the repeated branch crosses as nothing.
  if (at.seen.has(value)) return undefined
  at.seen.add(value)
  if (APIS.has(value)) at = { ...at, mode: 'api' }
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, { ...at, key: undefined, parent: value }))
    const out: Record<string, unknown> = {}
    for (const key of membersOf(value)) {
      const mode = at.mode === 'context' && key === 'api' ? 'api' : at.mode
      if (mode === 'api' && typeof Object.getOwnPropertyDescriptor(value, key)?.get === 'function') {
        out[key] = lateMark(value, key, { ...at, mode, key, parent: value })
        continue
      }
      let member: unknown
      try {
        member = (value as Record<string, unknown>)[key]
      } catch {
        continue
      }
      if (member === undefined) continue
      out[key] = walk(member, { ...at, mode, key, parent: value })
    }
    return out
  } finally {
    at.seen.delete(value)
  }
}

/** Own enumerable keys, and for a class instance its methods too (a store's surface is a class). */
function membersOf(value: object): string[] {
  const keys = new Set(Object.keys(value))
  for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype; ) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || keys.has(key)) continue
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)
      if (typeof descriptor?.value === 'function') keys.add(key)
    }
    proto = Object.getPrototypeOf(proto)
  }
  return [...keys]
}

function kindOf(key: string | undefined, parent: object | undefined): CallKind {
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

export interface FaultMark {
  readonly [FAULT]: { name: string; message: string; code?: unknown; stack?: string; data?: unknown }
}

/** An error's own data members beyond its name, message and code (a fault's `ref`), where they clone. */
function ownData(error: Error): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {}
  for (const key of Object.keys(error)) {
    if (key === 'name' || key === 'message' || key === 'code' || key === 'stack') continue
    const value = (error as unknown as Record<string, unknown>)[key]
    if (typeof value === 'function') continue
    try {
      data[key] = structuredClone(value)
    } catch {
      // A member that cannot be cloned stays behind; the rest of the error still crosses.
    }
  }
  return Object.keys(data).length > 0 ? data : undefined
}

export function faultOf(error: unknown): FaultMark {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    const data = ownData(error)
    return {
      [FAULT]: {
        name: error.name,
        message: error.message,
        ...(code === undefined ? {} : { code }),
        ...(error.stack === undefined ? {} : { stack: error.stack }),
        ...(data === undefined ? {} : { data }),
      },
    }
  }
  return { [FAULT]: { name: 'Error', message: String(error) } }
}

/** The error a marshalled fault stands for: same name, message and code. */
export function errorOf(mark: FaultMark): Error {
  const { name, message, code, stack, data } = mark[FAULT]
  const error = new Error(message)
  if (typeof data === 'object' && data !== null) Object.assign(error, data)
  Object.defineProperty(error, 'name', { value: name, configurable: true, writable: true })
  if (code !== undefined) (error as Error & { code?: unknown }).code = code
  if (stack !== undefined) error.stack = stack
  return error
}

export function isFault(value: unknown): value is FaultMark {
  return typeof value === 'object' && value !== null && FAULT in value
}

/** Turns handles back into callable functions, `proxy` making each; faults back into errors. */
export interface Unmarshal {
  readonly proxy: (mark: HandleMark, path: readonly string[]) => unknown
  /** Called on each object rebuilt: a side may adjust a shape it knows (a storage's transaction). */
  readonly adapt?: (value: Record<string, unknown>) => Record<string, unknown>
}

export function unmarshal(value: unknown, how: Unmarshal, path: readonly string[] = []): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (HANDLE in value) return how.proxy(value as HandleMark, path)
  if (CONSTANT in value) return constantOf(value as ConstantMark, how, path)
  if (SIGNAL in value) return signalOf(value as SignalMark, how)
  if (MESSAGE in value) return httpOf(value as HttpMark)
  if (FAULT in value) return errorOf(value as FaultMark)
  if (crossesAsIs(value)) return value
  if (Array.isArray(value)) return value.map((item) => unmarshal(item, how, path))
  const out: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(value)) {
    if (isLate(member)) defineLate(out, key, member, how, [...path, key])
    else out[key] = unmarshal(member, how, [...path, key])
  }
  return how.adapt ? how.adapt(out) : out
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

/** A signal crosses as its state and a handle the other side subscribes through to hear its abort. */
function signalMark(signal: AbortSignal, at: Walk): SignalMark {
  const listen = (notify: () => unknown) => {
    signal.addEventListener('abort', () => void Promise.resolve(notify()).catch(() => undefined), {
      once: true,
    })
  }
  return { [SIGNAL]: signal.aborted, listen: walk(listen, { ...at, key: undefined, parent: undefined }) }
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

interface HttpMark {
  readonly [MESSAGE]: {
    readonly kind: 'request' | 'response'
    readonly url?: string
    readonly method?: string
    readonly status?: number
    readonly statusText?: string
    readonly headers: [string, string][]
    readonly body: ArrayBuffer | null
  }
}

/**
 * A Request or a Response (a spore's route) cannot be cloned as it is: before it crosses, its body
 * is read whole (routes' bodies are bounded by their bodyLimit), and the other side builds it again.
 * Only a value itself, or a member of the arguments, is read this way.
 */
export async function settle(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return value.some(isHttp) ? Promise.all(value.map(settle)) : value
  if (!isHttp(value)) return value
  const headers = [...value.headers]
  const bytes = await value.arrayBuffer()
  const body = bytes.byteLength === 0 ? null : bytes
  const mark: HttpMark[typeof MESSAGE] =
    value instanceof Request
      ? { kind: 'request', url: value.url, method: value.method, headers, body }
      : { kind: 'response', status: value.status, statusText: value.statusText, headers, body }
  return { [MESSAGE]: mark }
}

export function isHttp(value: unknown): value is Request | Response {
  return value instanceof Request || value instanceof Response
}

function httpOf(mark: HttpMark): Request | Response {
  const { kind, url, method, status, statusText, headers, body } = mark[MESSAGE]
  if (kind === 'request') return new Request(url ?? '', { method: method ?? 'GET', headers, body })
  return new Response(body, { status: status ?? 200, statusText: statusText ?? '', headers })
}

interface LateMark {
  readonly [LATE]: unknown
  readonly value?: unknown
}

/**
 * A getter (a rhiza's `get api()` that answers only once start() has run) crosses as what it answers
 * now, if anything, and a handle to read it again: the other side's object keeps the member, and
 * refreshLate reads it anew once the spore has started.
 */
function lateMark(owner: object, key: string, at: Walk): LateMark {
  const read = () => (owner as Record<string, unknown>)[key]
  let value: unknown
  try {
    value = walk(read(), at)
  } catch {
    value = undefined
  }
  return {
    [LATE]: walk(read, { ...at, key: undefined, parent: undefined }),
    ...(value === undefined ? {} : { value }),
  }
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
