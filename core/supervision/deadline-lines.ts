/**
 * The clocks behind every deadline. A timer per call (set, then cleared a few microseconds later)
 * was the dearest part of a message's path, so calls with the same deadline length wait in one
 * line, oldest first: each expires no sooner than the one before it, and one timer, set for the
 * oldest, serves the whole line. A call that settles leaves the line at once.
 */

/** One call waiting on its deadline: `expire` runs once if it is still waiting when the deadline passes. */
export abstract class Watch {
  due = 0
  line: DeadlineLine | undefined
  previous: Watch | undefined
  next: Watch | undefined

  /** True if the call settled in time (and leaves its line); false if its deadline had passed. */
  release(): boolean {
    const line = this.line
    if (line === undefined) return false
    line.remove(this)
    return true
  }

  abstract expire(): void
}

/** Lines kept while empty, so a steady stream reuses its timer; past this, empty ones are dropped. */
const LINES_KEPT = 64

/** The calls waiting with one deadline length, in the order they started (and so of their expiry). */
class DeadlineLine {
  readonly #ms: number
  #first: Watch | undefined
  #last: Watch | undefined
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(ms: number) {
    this.#ms = ms
  }

  get empty(): boolean {
    return this.#first === undefined
  }

  add(watch: Watch): void {
    watch.due = performance.now() + this.#ms
    watch.line = this
    watch.previous = this.#last
    if (this.#last) this.#last.next = watch
    else this.#first = watch
    this.#last = watch
    this.#arm()
  }

  remove(watch: Watch): void {
    watch.line = undefined
    if (watch.previous) watch.previous.next = watch.next
    else this.#first = watch.next
    if (watch.next) watch.next.previous = watch.previous
    else this.#last = watch.previous
    watch.previous = undefined
    watch.next = undefined
    // An empty line keeps its timer but no longer holds the process open for it.
    if (this.#first === undefined) this.#timer?.unref()
  }

  /** Stops the timer of an empty line, for good. */
  close(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
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
    const expired: Watch[] = []
    while (this.#first !== undefined && this.#first.due <= now) {
      expired.push(this.#first)
      this.remove(this.#first)
    }
    // The oldest left sets the next alarm: it may have come after the one the timer was set for.
    if (this.#first !== undefined) this.#arm()
    // Each expiry runs even if one before it throws; the first throw is then thrown, as its own timer would have.
    let thrown: { error: unknown } | undefined
    for (const watch of expired) {
      try {
        watch.expire()
      } catch (error) {
        thrown ??= { error }
      }
    }
    if (thrown) throw thrown.error
  }
}

const lines = new Map<number, DeadlineLine>()

/** Starts watching a call that must settle within `ms`. */
export function watchFor(ms: number, watch: Watch): void {
  let line = lines.get(ms)
  if (line === undefined) {
    if (lines.size >= LINES_KEPT) dropEmptyLines()
    line = new DeadlineLine(ms)
    lines.set(ms, line)
  }
  line.add(watch)
}

function dropEmptyLines(): void {
  for (const [ms, line] of lines) {
    if (!line.empty) continue
    line.close()
    lines.delete(ms)
  }
}
