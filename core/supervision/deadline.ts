import type { Logger } from '@mycelo/septum'
import { Watch, watchFor } from './deadline-lines.ts'

/** How every expiry reads, so a reason carried as text can still be told apart. */
export const EXPIRY = ' did not finish within'

/** A call into a spore that did not settle in time; whatever it settles to later is ignored. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded'
  constructor(
    readonly step: string,
    readonly ms: number,
  ) {
    super(`${step}${EXPIRY} ${ms} ms`)
  }
}

export interface DeadlineOptions {
  /** What is being waited for, as an operator reads it: `start()`, `inspect()`. */
  readonly step: string
  readonly ms: number
  /** Called once if the call settles after its deadline: a late success may hold something to release. */
  readonly onLate?: (outcome: PromiseSettledResult<unknown>) => void
  /** Called once at the moment the deadline passes: the one log line each expiry gets. */
  readonly onExpired?: (expiry: DeadlineExceeded) => void
  /** Called once when the call settles, in time or late: what it held can be counted free. */
  readonly onSettled?: () => void
}

/** The one log line an expiry gets, naming the spore and the step. */
export function logExpiry(logger: Logger, spore: string): (expiry: DeadlineExceeded) => void {
  return ({ step, ms }) => logger.warn('deadline passed', { spore, step, ms })
}

/**
 * Answers what `work` answers, or rejects with DeadlineExceeded once `ms` have passed. A value that
 * is not a promise is answered as it is, with no timer: the common path costs nothing.
 */
export function withinDeadline<T>(work: () => T | PromiseLike<T>, options: DeadlineOptions): T | Promise<T> {
  let value: T | PromiseLike<T>
  try {
    value = work()
  } catch (error) {
    return Promise.reject(error)
  }
  return isThenable(value) ? raceDeadline(value, options) : value
}

/** The promise half of withinDeadline, for a call already made. */
export function raceDeadline<T>(pending: PromiseLike<T>, options: DeadlineOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const race = new Race(options, reject)
    watchFor(options.ms, race)
    Promise.resolve(pending).then(
      (value) => {
        options.onSettled?.()
        if (!race.release()) return options.onLate?.({ status: 'fulfilled', value })
        resolve(value)
      },
      (error: unknown) => {
        options.onSettled?.()
        if (!race.release()) return options.onLate?.({ status: 'rejected', reason: error })
        reject(error)
      },
    )
  })
}

/** One call racing its deadline: its expiry rejects the race with DeadlineExceeded. */
class Race extends Watch {
  readonly #options: DeadlineOptions
  readonly #reject: (error: DeadlineExceeded) => void

  constructor(options: DeadlineOptions, reject: (error: DeadlineExceeded) => void) {
    super()
    this.#options = options
    this.#reject = reject
  }

  expire(): void {
    const { step, ms, onExpired } = this.#options
    const expiry = new DeadlineExceeded(step, ms)
    onExpired?.(expiry)
    this.#reject(expiry)
  }
}

export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  )
}

/**
 * Whether a promise is already fulfilled, read without waiting a turn (Bun.peek): a call that
 * finished before it returned is then followed on at once, with no reaction, hop or deadline.
 */
export function isFulfilled(promise: Promise<unknown>): boolean {
  return Bun.peek.status(promise) === 'fulfilled'
}

/** Every call into a spore that has a deadline; `mycelo.yaml`'s `timeouts:` block sets each one. */
export const DEFAULT_DEADLINES = {
  /** Importing the module and calling create(). */
  create: 30_000,
  start: 30_000,
  connect: 30_000,
  listen: 30_000,
  stop: 10_000,
  inspect: 2_000,
  handler: 60_000,
  health: 5_000,
  send: 15_000,
  groupMembers: 5_000,
  /** An agent's whole execute, its wait for a sandbox included. */
  execute: 30_000,
} as const

export type Deadlines = { readonly [K in keyof typeof DEFAULT_DEADLINES]: number }
