/**
 * Counts the calls into each spore that are still running — past their deadline too, since an
 * abandoned call still holds what it was given — so a stuck spore cannot gather unbounded work.
 */
export class InFlight {
  readonly #limit: number
  readonly #counts = new Map<string, number>()
  readonly #full = new Set<string>()
  readonly #onFull: (name: string, limit: number) => void

  /** `onFull` is told once each time a spore reaches the limit, not for every call turned away. */
  constructor(limit: number, onFull: (name: string, limit: number) => void) {
    this.#limit = limit
    this.#onFull = onFull
  }

  /** Whether one more call into `name` may go ahead; each true must be matched by a `leave`. */
  enter(name: string): boolean {
    const count = this.#counts.get(name) ?? 0
    if (count >= this.#limit) {
      if (!this.#full.has(name)) {
        this.#full.add(name)
        this.#onFull(name, this.#limit)
      }
      return false
    }
    this.#counts.set(name, count + 1)
    return true
  }

  leave(name: string): void {
    const count = (this.#counts.get(name) ?? 1) - 1
    if (count <= 0) this.#counts.delete(name)
    else this.#counts.set(name, count)
    if (this.#full.size > 0 && count < this.#limit) this.#full.delete(name)
  }

  /** Releases the slot once `pending` settles, however it settles. */
  leaveWhen(name: string, pending: PromiseLike<unknown>): void {
    const leave = () => this.leave(name)
    Promise.resolve(pending).then(leave, leave)
  }
}
