/**
 * The keys that mark what a marshalled value carries besides data (a handle, an error, a shared
 * value…), and the marks of errors. Every mark's key starts with MARK; a data key that starts with
 * it crosses with MARK doubled, so no data is ever read as a mark. MARK is a printable Latin-1
 * character: JSON.stringify takes its fast path on such keys, and crawls on a NUL.
 */
export const MARK = '\u00a7'

/** A handle the other side calls back through. */
export const HANDLE = `${MARK}fn`
/** An error: its name, message and code survive. */
export const FAULT = `${MARK}err`
/** A function crossing as the value it answers (see markConstant). */
export const CONSTANT = `${MARK}const`
/** An AbortSignal: whether it is aborted, and how to hear when it is. */
export const SIGNAL = `${MARK}signal`
/** A value the other side keeps, by its id, with its copy the first time (see markShared). */
export const SHARED = `${MARK}shared`
/** A context crossing as a shared base and its own members (see markLayered). */
export const LAYER = `${MARK}layer`
/** A handle's bound arguments (see markBound). */
export const BOUND = `${MARK}bound`
/** A getter of a spore's instance, read again once it has started (see refreshLate). */
export const LATE = `${MARK}late`
/** A Request or a Response, read whole (see settle). */
export const MESSAGE = `${MARK}http`
/** A spore's `t`, as what its host renders it from (see portableTranslate). */
export const TRANSLATE = `${MARK}t`
/** A Date, as its time: so a message carrying one still crosses as JSON. */
export const DATE = `${MARK}date`

/** A data key as it crosses: one that could be read as a mark gets MARK doubled. */
export function keyOut(key: string): string {
  return key.charCodeAt(0) === 0xa7 ? `${MARK}${key}` : key
}

/** A data key as it was before it crossed. */
export function keyIn(key: string): string {
  return key.charCodeAt(0) === 0xa7 ? key.slice(1) : key
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
