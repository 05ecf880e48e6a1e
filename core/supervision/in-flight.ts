/** One spore's running calls, and whether it was told it reached the limit since it last had room. */
interface Slot {
  running: number
  told: boolean
}

/**
 * Counts the calls into each spore that are still running — past their deadline too, since an
 * abandoned call still holds what it was given — so a stuck spore cannot gather unbounded work.
 */
export class InFlight {
  readonly #limit: number
  /** One slot per spore name ever counted (bounded by the spores), so counting is one lookup. */
  readonly #slots = new Map<string, Slot>()
  readonly #onFull: (name: string, limit: number) => void
  /** Calls running over every spore: while none is, none can be at its limit, and no slot is read. */
  #running = 0

  /** `onFull` is told once each time a spore reaches the limit, not for every call turned away. */
  constructor(limit: number, onFull: (name: string, limit: number) => void) {
    this.#limit = limit
    this.#onFull = onFull
  }

  /** Whether one more call into `name` may go ahead; each true must be matched by a `leave`. */
  enter(name: string): boolean {
    const slot = this.#slot(name)
    if (!this.#roomIn(name, slot)) return false
    slot.running++
    this.#running++
    return true
  }

  /**
   * Whether a call into `name` may go ahead, without counting it: for a call that cannot call
   * back into the path, whose answer is counted with `holdUntil` only if it is still pending.
   */
  hasRoom(name: string): boolean {
    return this.#running === 0 || this.#roomIn(name, this.#slot(name))
  }

  leave(name: string): void {
    const slot = this.#slots.get(name)
    if (slot === undefined || slot.running === 0) return
    slot.running--
    this.#running--
    if (slot.running < this.#limit) slot.told = false
  }

  /** Releases the slot once `pending` settles, however it settles. */
  leaveWhen(name: string, pending: PromiseLike<unknown>): void {
    const leave = () => this.leave(name)
    Promise.resolve(pending).then(leave, leave)
  }

  /** Counts a call already made (after `hasRoom`) until `pending` settles. */
  holdUntil(name: string, pending: PromiseLike<unknown>): void {
    this.#slot(name).running++
    this.#running++
    this.leaveWhen(name, pending)
  }

  #slot(name: string): Slot {
    let slot = this.#slots.get(name)
    if (slot === undefined) {
      slot = { running: 0, told: false }
      this.#slots.set(name, slot)
    }
    return slot
  }

  #roomIn(name: string, slot: Slot): boolean {
    if (slot.running < this.#limit) return true
    if (!slot.told) {
      slot.told = true
      this.#onFull(name, this.#limit)
    }
    return false
  }
}
