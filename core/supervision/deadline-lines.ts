/**
 * The clocks behind every deadline. A timer per call (set, then cleared a few microseconds later)
 * was the dearest part of a message's path, so calls with the same deadline length wait in one
 * line, oldest first: each expires no sooner than the one before it, and one timer, set for the
 * oldest, serves the whole line. A call that settles leaves the line at once.
 */

/** One call waiting on its deadline; `release` takes it out of its line. */
export interface Watch {
  /** True if the call settled in time (and leaves the line); false if its deadline had passed. */
  release(): boolean
}

interface Waiting extends Watch {
  readonly due: number
  readonly expire: () => void
  previous: Waiting | undefined
  next: Waiting | undefined
  /** Still in its line: neither settled nor expired. */
  waiting: boolean
}

/** Lines kept while empty, so a steady stream reuses its timer; past this, empty ones are dropped. */
const LINES_KEPT = 64

/** The calls waiting with one deadline length, in the order they started (and so of their expiry). */
class DeadlineLine {
  readonly #ms: number
  #first: Waiting | undefined
  #last: Waiting | undefined
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(ms: number) {
    this.#ms = ms
  }

  get empty(): boolean {
    return this.#first === undefined
  }

  watch(expire: () => void): Watch {
    const line = this
    const waiting: Waiting = {
      due: performance.now() + this.#ms,
      expire,
      previous: this.#last,
      next: undefined,
      waiting: true,
      release() {
        if (!this.waiting) return false
        line.#remove(this)
        return true
      },
    }
    if (this.#last) this.#last.next = waiting
    else this.#first = waiting
    this.#last = waiting
    this.#arm()
    return waiting
  }

  /** Stops the timer of an empty line, for good. */
  close(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
  }

  #remove(waiting: Waiting): void {
    waiting.waiting = false
    if (waiting.previous) waiting.previous.next = waiting.next
    else this.#first = waiting.next
    if (waiting.next) waiting.next.previous = waiting.previous
    else this.#last = waiting.previous
    waiting.previous = undefined
    waiting.next = undefined
    // An empty line keeps its timer but no longer holds the process open for it.
    if (this.#first === undefined) this.#timer?.unref()
  }

  /** Set for the oldest call; a pending call holds the process open, as its own timer would have. */
  #arm(): void {
    if (this.#timer !== undefined) {
      this.#timer.ref()
      return
    }
    const delay = Math.max(0, Math.ceil(this.#first!.due - performance.now()))
    this.#timer = setTimeout(this.#fire, delay)
  }

  readonly #fire = (): void => {
    this.#timer = undefined
    const now = performance.now()
    while (this.#first !== undefined && this.#first.due <= now) {
      const expired = this.#first
      this.#remove(expired)
      expired.expire()
    }
    // The oldest left sets the next alarm: it may have come after the one the timer was set for.
    if (this.#first !== undefined) this.#arm()
  }
}

const lines = new Map<number, DeadlineLine>()

/** Starts watching a call that must settle within `ms`; `expire` runs once if it does not. */
export function watchFor(ms: number, expire: () => void): Watch {
  let line = lines.get(ms)
  if (line === undefined) {
    if (lines.size >= LINES_KEPT) dropEmptyLines()
    line = new DeadlineLine(ms)
    lines.set(ms, line)
  }
  return line.watch(expire)
}

function dropEmptyLines(): void {
  for (const [ms, line] of lines) {
    if (!line.empty) continue
    line.close()
    lines.delete(ms)
  }
}
