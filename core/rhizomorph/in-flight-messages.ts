/**
 * How many messages are being handled that did not finish at once: a count rather than a set of
 * their promises, since it is touched twice per message; shut-down waits for it to reach none.
 */
export class MessagesInFlight {
  #count = 0
  #drained: (() => void) | undefined

  get count(): number {
    return this.#count
  }

  /**
   * Counts `step` until it settles; its failure goes to `failed`, so the answer never rejects.
   * `settled`, if given, is called after, in the same turn rather than one more promise later.
   */
  track(step: Promise<void>, failed: (error: unknown) => void, settled?: () => void): Promise<void> {
    this.#count++
    return step.then(
      () => {
        this.#settled()
        settled?.()
      },
      (error: unknown) => {
        failed(error)
        this.#settled()
        settled?.()
      },
    )
  }

  /** Answers whether every message finished within `timeoutMs`. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (this.#count === 0) return true
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs)
    })
    const none = new Promise<true>((resolve) => {
      this.#drained = () => resolve(true)
    })
    const outcome = await Promise.race([none, late])
    clearTimeout(timer)
    return outcome
  }

  #settled(): void {
    this.#count--
    if (this.#count === 0) this.#drained?.()
  }
}
