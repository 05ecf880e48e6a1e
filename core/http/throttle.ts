/** How many failed sign-ins one address may make per window before it is made to wait. */
export const LOGIN_FAILURES_ALLOWED = 5
export const LOGIN_WINDOW_MS = 15 * 60_000
/** Addresses remembered at most; past it the oldest are forgotten rather than memory growing. */
const ADDRESSES_KEPT = 10_000

/**
 * Failed sign-ins per address in a fixed window, in memory: a guessed code costs the guesser a
 * window per five tries, and a restart forgets, which only favours the operator.
 */
export class LoginThrottle {
  readonly #failures = new Map<string, { count: number; since: number }>()
  readonly #now: () => number

  constructor(now: () => number) {
    this.#now = now
  }

  /** Milliseconds this address must still wait, or 0 when it may try. */
  waitFor(address: string): number {
    const entry = this.#failures.get(address)
    if (entry === undefined) return 0
    const elapsed = this.#now() - entry.since
    if (elapsed >= LOGIN_WINDOW_MS) {
      this.#failures.delete(address)
      return 0
    }
    return entry.count >= LOGIN_FAILURES_ALLOWED ? LOGIN_WINDOW_MS - elapsed : 0
  }

  failed(address: string): void {
    const now = this.#now()
    const entry = this.#failures.get(address)
    if (entry === undefined || now - entry.since >= LOGIN_WINDOW_MS) {
      if (this.#failures.size >= ADDRESSES_KEPT) {
        const oldest = this.#failures.keys().next().value
        if (oldest !== undefined) this.#failures.delete(oldest)
      }
      this.#failures.set(address, { count: 1, since: now })
    } else entry.count += 1
  }
}
