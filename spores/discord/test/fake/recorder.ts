interface Waiter<T> {
  readonly match: (entry: T) => boolean
  readonly resolve: (entry: T) => void
}

/** An append-only log that a test can read in order or wait on. */
export class Recorder<T> {
  readonly #entries: T[] = []
  readonly #waiters = new Set<Waiter<T>>()

  get entries(): readonly T[] {
    return this.#entries
  }

  add(entry: T): void {
    this.#entries.push(entry)
    for (const waiter of this.#waiters) {
      if (!waiter.match(entry)) continue
      this.#waiters.delete(waiter)
      waiter.resolve(entry)
    }
  }

  /** The first entry, already logged or still to come, that matches; rejects after `timeoutMs`. */
  waitFor(match: (entry: T) => boolean, timeoutMs = 5_000): Promise<T> {
    const logged = this.#entries.find(match)
    if (logged !== undefined) return Promise.resolve(logged)
    return new Promise((resolve, reject) => {
      const waiter: Waiter<T> = {
        match,
        resolve: (entry) => {
          clearTimeout(timer)
          resolve(entry)
        },
      }
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter)
        reject(new Error(`the fake Discord saw nothing matching within ${timeoutMs} ms`))
      }, timeoutMs)
      this.#waiters.add(waiter)
    })
  }

  /** Waits until `count` entries match, in the order they arrived. */
  async waitForCount(match: (entry: T) => boolean, count: number, timeoutMs = 5_000): Promise<T[]> {
    let seen = this.#entries.filter(match)
    const deadline = Date.now() + timeoutMs
    while (seen.length < count) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`the fake Discord saw ${seen.length} of ${count} expected entries`)
      const known = new Set(seen)
      await this.waitFor((entry) => match(entry) && !known.has(entry), left)
      seen = this.#entries.filter(match)
    }
    return seen.slice(0, count)
  }
}
