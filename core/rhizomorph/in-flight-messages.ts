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

  /** One more message that did not finish at once; each is matched by a `leave`. */
  enter(): void {
    this.#count++
  }

  leave(): void {
    this.#count--
    if (this.#count === 0) this.#drained?.()
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
}
