interface Waiter<T> {
  readonly match: (item: T) => boolean
  readonly resolve: (item: T) => void
}

/** What a fake received, in order, with a way to wait for something still to come. */
export class Recorder<T> {
  readonly all: T[] = []
  #waiters: Waiter<T>[] = []

  add(item: T): void {
    this.all.push(item)
    const waiting = this.#waiters
    this.#waiters = waiting.filter((waiter) => !waiter.match(item))
    for (const waiter of waiting) if (waiter.match(item)) waiter.resolve(item)
  }

  /** Forgets what was recorded so far, such as the calls a hypha makes while connecting. */
  clear(): void {
    this.all.length = 0
  }

  /** The items recorded so far that match. */
  where(match: (item: T) => boolean): T[] {
    return this.all.filter(match)
  }

  /** The first matching item recorded from now on; rejects, naming `what`, if none comes in time. */
  next(match: (item: T) => boolean, what: string, timeoutMs = 5_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== entry)
        reject(new Error(`the fake received no ${what} within ${timeoutMs} ms`))
      }, timeoutMs)
      const entry: Waiter<T> = {
        match,
        resolve: (item) => {
          clearTimeout(timer)
          resolve(item)
        },
      }
      this.#waiters.push(entry)
    })
  }
}
