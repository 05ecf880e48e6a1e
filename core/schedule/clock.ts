/** Time as the scheduler reads it: the system's, or one a test moves by hand. */
export interface Clock {
  now(): number
  setTimer(ms: number, fire: () => void): unknown
  clearTimer(timer: unknown): void
}

// setTimeout's largest delay; a later due time is reached by waking early and looking again.
const LONGEST_WAIT = 2 ** 31 - 1

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (ms, fire) => {
    const timer = setTimeout(fire, Math.min(Math.max(ms, 0), LONGEST_WAIT))
    // A pending schedule never keeps the process alive on its own.
    ;(timer as { unref?: () => void }).unref?.()
    return timer
  },
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}

/**
 * A clock that moves only when told: `advance` fires the timers that fall due on the way, each at
 * its own time. Tests use it so that no test waits for real minutes.
 */
export class ManualClock implements Clock {
  #now: number
  #timers = new Map<number, { at: number; fire: () => void }>()
  #next = 1

  constructor(start: Date | string | number = '2026-01-01T00:00:00Z') {
    this.#now = new Date(start).getTime()
  }

  now(): number {
    return this.#now
  }

  setTimer(ms: number, fire: () => void): unknown {
    const id = this.#next++
    this.#timers.set(id, { at: this.#now + Math.max(ms, 0), fire })
    return id
  }

  clearTimer(timer: unknown): void {
    this.#timers.delete(timer as number)
  }

  /** How many timers are set: the scheduler keeps one, however many schedules it holds. */
  get pending(): number {
    return this.#timers.size
  }

  /**
   * Moves time forward by `ms`, firing every timer due on the way in order; after each, `settle`
   * (such as the scheduler's idle()) is awaited, so what a timer started finishes before the next.
   */
  async advance(ms: number, settle?: () => Promise<unknown>): Promise<void> {
    const target = this.#now + ms
    for (;;) {
      const due = [...this.#timers].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0]
      if (due === undefined) break
      this.#timers.delete(due[0])
      this.#now = Math.max(this.#now, due[1].at)
      due[1].fire()
      await settle?.()
    }
    this.#now = target
  }
}
