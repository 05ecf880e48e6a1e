/** How many sign-in attempts one address may start per window before it is made to wait. */
export const LOGIN_ATTEMPTS_ALLOWED = 5
export const LOGIN_WINDOW_MS = 15 * 60_000
/** Sign-ins one address may have under way at once: a person types one code at a time. */
export const LOGIN_IN_FLIGHT_PER_ADDRESS = 2
/** Sign-ins under way at once from every address together: many addresses cannot flood it either. */
export const LOGIN_IN_FLIGHT_TOTAL = 16
/** Addresses remembered at most; past it the oldest are forgotten rather than memory growing. */
const ADDRESSES_KEPT = 10_000

/** One sign-in under way: it already counts; `end()` (always, once) frees its place. */
export interface LoginAttempt {
  /** The ticket opened a session: the address's count starts over. */
  succeeded(): void
  end(): void
}

export type AttemptStart =
  | { readonly ok: true; readonly attempt: LoginAttempt }
  | { readonly ok: false; readonly waitMs: number }

/**
 * Sign-in attempts per address in a fixed window, in memory, counted when an attempt starts (before
 * its body is read), so attempts racing each other are counted as they arrive, not as they fail.
 * A guessed code costs the guesser a window per five tries; a restart forgets, which only favours
 * the operator.
 */
export class LoginThrottle {
  readonly #attempts = new Map<string, { count: number; since: number }>()
  readonly #inFlight = new Map<string, number>()
  #total = 0
  readonly #now: () => number

  constructor(now: () => number) {
    this.#now = now
  }

  /** Starts an attempt from `address`, or says how long it must wait first. */
  begin(address: string): AttemptStart {
    const now = this.#now()
    let entry = this.#attempts.get(address)
    if (entry !== undefined && now - entry.since >= LOGIN_WINDOW_MS) {
      this.#attempts.delete(address)
      entry = undefined
    }
    if (entry !== undefined && entry.count >= LOGIN_ATTEMPTS_ALLOWED) {
      return { ok: false, waitMs: LOGIN_WINDOW_MS - (now - entry.since) }
    }
    const running = this.#inFlight.get(address) ?? 0
    if (running >= LOGIN_IN_FLIGHT_PER_ADDRESS || this.#total >= LOGIN_IN_FLIGHT_TOTAL) {
      return { ok: false, waitMs: 1000 }
    }
    if (entry === undefined) {
      if (this.#attempts.size >= ADDRESSES_KEPT) {
        const oldest = this.#attempts.keys().next().value
        if (oldest !== undefined) this.#attempts.delete(oldest)
      }
      this.#attempts.set(address, { count: 1, since: now })
    } else entry.count += 1
    this.#inFlight.set(address, running + 1)
    this.#total += 1
    let ended = false
    return {
      ok: true,
      attempt: {
        succeeded: () => {
          this.#attempts.delete(address)
        },
        end: () => {
          if (ended) return
          ended = true
          this.#total -= 1
          const left = (this.#inFlight.get(address) ?? 1) - 1
          if (left > 0) this.#inFlight.set(address, left)
          else this.#inFlight.delete(address)
        },
      },
    }
  }

  /** Sign-ins under way now, for a test or a status line. */
  get inFlight(): number {
    return this.#total
  }
}
