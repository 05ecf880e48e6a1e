/**
 * The typed failure channel of an execute. Each kind is a fact the host can act on; a foreign throw
 * is Unknown, never guessed at from its prose.
 */
export type SandboxFailure =
  | { readonly kind: 'SyntaxError'; readonly detail: string }
  | { readonly kind: 'GuestException'; readonly detail: string }
  | { readonly kind: 'TransportLost' }
  | { readonly kind: 'BadResponse' }
  | { readonly kind: 'CapabilityFailed'; readonly module: string; readonly operation: string }
  | { readonly kind: 'DeadlineExceeded'; readonly timeoutMs: number }
  | { readonly kind: 'Cancelled'; readonly by: 'caller' }
  | {
      readonly kind: 'SandboxBusy'
      readonly code: 'sandbox-busy'
      readonly capacity: number
      readonly waitedMs: number
    }
  /** The program started more host calls than one execute may (at once, or in all); it was stopped. */
  | { readonly kind: 'HostCallLimit'; readonly bound: 'in-flight' | 'total'; readonly limit: number }
  | { readonly kind: 'InvalidResult' }
  | { readonly kind: 'OversizedResult'; readonly limitBytes: number }
  | { readonly kind: 'Unknown' }

/** A failure as a throw, for the paths (admission, the sandbox) that reject rather than answer. */
export class SandboxFailureError extends Error {
  override readonly name = 'SandboxFailureError'
  constructor(
    readonly failure: SandboxFailure,
    /** Host-only evidence: never sent to the guest or the model. */
    readonly evidence?: unknown,
    /** The host-side failure (its index in the execute's record) an uncaught guest error was. */
    readonly fault?: number,
  ) {
    super(failure.kind)
  }
}

/** What the operator gets for a failure: the reference the model saw, and the evidence it did not. */
export interface SandboxFailureReport {
  readonly reference: string
  readonly executionId: string
  readonly failure: SandboxFailure
  readonly evidence: unknown
}

const DETAIL_LIMIT = 500

/** The longest message the model is given, whatever a catalogue's words add. */
export const MESSAGE_LIMIT = 1_000

/** Renders `agent.failure.<key>` in the reader's language; the English below stands in without one. */
export type FailureWords = (key: string, params: Readonly<Record<string, unknown>>) => string

/**
 * The bounded projection the model receives: what happened and what to do, with a reference an
 * operator can find in the log; no host diagnostics.
 */
export function sandboxFailureMessage(
  failure: SandboxFailure,
  reference: string,
  words?: FailureWords,
): string {
  const params = paramsOf(failure)
  const message = words ? words(failure.kind, params) : describe(failure, params)
  const whole = words ? words('withReference', { message, reference }) : `${message} (reference ${reference})`
  if (whole.length <= MESSAGE_LIMIT) return whole
  // The reference is what the operator needs: it is kept, the words before it are cut.
  const tail = ` (reference ${reference})`
  return `${whole.slice(0, MESSAGE_LIMIT - tail.length - 1)}…${tail}`
}

/** What a failure's words may name: its facts, a guest's own text cut to its bound. */
function paramsOf(failure: SandboxFailure): Record<string, unknown> {
  const { kind: _kind, ...facts } = failure as SandboxFailure & Record<string, unknown>
  return 'detail' in failure ? { ...facts, detail: bounded(failure.detail) } : facts
}

function describe(failure: SandboxFailure, params: Record<string, unknown>): string {
  switch (failure.kind) {
    case 'SyntaxError':
      return `The program does not parse: ${params.detail}`
    case 'GuestException':
      return `The program threw: ${params.detail}`
    case 'TransportLost':
      return 'The sandbox stopped answering before the program finished.'
    case 'BadResponse':
      return 'The sandbox answered something that is not a result.'
    case 'CapabilityFailed':
      return `The operation ${failure.module}.${failure.operation} failed on the host side; it is not your input.`
    case 'DeadlineExceeded':
      return `The program did not finish within ${failure.timeoutMs} ms and was stopped.`
    case 'Cancelled':
      return 'The execution was cancelled by its caller.'
    case 'SandboxBusy':
      return `[sandbox-busy] Every one of the ${failure.capacity} sandboxes stayed busy for ${failure.waitedMs} ms; the program did not run. Try again shortly.`
    case 'HostCallLimit':
      return failure.bound === 'total'
        ? `The program called more than ${failure.limit} operations in one execute and was stopped; do the rest in another execute.`
        : `The program had more than ${failure.limit} operation calls waiting at once and was stopped; await some before starting more.`
    case 'InvalidResult':
      return 'The program returned a value that is not JSON (a function, a symbol, a cycle, a bigint).'
    case 'OversizedResult':
      return `The program returned more than ${failure.limitBytes} bytes of JSON; return less, or summarise.`
    case 'Unknown':
      return 'The execution failed for a reason the host did not recognise.'
  }
}

function bounded(text: string): string {
  return text.length > DETAIL_LIMIT ? `${text.slice(0, DETAIL_LIMIT)}…` : text
}

/** A failure the runtime raised itself, or Unknown for anything foreign. */
export function failureOf(error: unknown): SandboxFailure {
  return error instanceof SandboxFailureError ? error.failure : { kind: 'Unknown' }
}
