import type { SandboxFailure } from '../failure.ts'
import type { CatalogEntry } from '../forage.ts'
import type { HostAnswer } from '../guest.ts'
import type { SandboxLimits } from '../sandbox.ts'

/** What a worker is started with. */
export interface WorkerData {
  /** The ceiling of the worker's WebAssembly memory: a program that needs more fails out of memory. */
  readonly memoryBytes: number
}

/** A worker's WebAssembly memory when it starts (QuickJS's own initial size). */
export const INITIAL_BYTES = 16 * 1024 * 1024

/** What the bot's thread tells a sandbox worker. */
export type ToWorker =
  | {
      readonly kind: 'run'
      readonly runId: number
      readonly program: string
      readonly paths: readonly string[]
      /** The discovery catalogue; entries are left out when the worker already holds this version. */
      readonly catalog: { readonly version: number; readonly entries?: readonly CatalogEntry[] }
      readonly limits: SandboxLimits
      readonly deadlineAt: number
      /** One Int32 the bot's thread sets to stop a guest that never yields to read a message. */
      readonly stop: SharedArrayBuffer
    }
  | { readonly kind: 'answer'; readonly runId: number; readonly seq: number; readonly answer: HostAnswer }
  | { readonly kind: 'stop'; readonly runId: number }

/** How a run ended, as the worker saw it. */
export type RunOutcome =
  | { readonly ok: true; readonly text: string }
  | {
      readonly ok: false
      readonly failure: SandboxFailure
      readonly evidence?: unknown
      /** The host-side failure an uncaught guest error was, by its index. */
      readonly fault?: number
    }
  | { readonly ok: false; readonly aborted: true }

/** What a sandbox worker tells the bot's thread. */
export type FromWorker =
  | {
      readonly kind: 'call'
      readonly runId: number
      readonly seq: number
      readonly path: string
      readonly input: unknown
    }
  | { readonly kind: 'result'; readonly runId: number; readonly outcome: RunOutcome }
  /** Every host call has been answered and the QuickJS runtime disposed: the worker is free. */
  | { readonly kind: 'settled'; readonly runId: number; readonly heapBytes: number }

/** A worker's message checked for its shape before anything acts on it; anything else is a bad response. */
export function isFromWorker(message: unknown): message is FromWorker {
  if (typeof message !== 'object' || message === null) return false
  const m = message as Record<string, unknown>
  switch (m.kind) {
    case 'call':
      return isId(m.runId) && isId(m.seq) && typeof m.path === 'string'
    case 'result':
      return isId(m.runId) && isOutcome(m.outcome)
    case 'settled':
      return isId(m.runId) && isId(m.heapBytes)
    default:
      return false
  }
}

function isId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}

function isOutcome(value: unknown): value is RunOutcome {
  if (typeof value !== 'object' || value === null) return false
  const o = value as Record<string, unknown>
  if (o.ok === true) return typeof o.text === 'string'
  if (o.ok !== false) return false
  if (o.aborted === true) return true
  const failure = o.failure as { kind?: unknown } | null | undefined
  return WORKER_FAILURES.has(failure?.kind as SandboxFailure['kind'])
}

/** The failures a worker can see for itself; the others (deadline, transport, busy) are the bot's to name. */
const WORKER_FAILURES: ReadonlySet<SandboxFailure['kind']> = new Set([
  'SyntaxError',
  'GuestException',
  'BadResponse',
  'HostCallLimit',
  'InvalidResult',
  'OversizedResult',
])
