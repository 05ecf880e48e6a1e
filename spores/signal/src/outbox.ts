import type { Logger } from '@mycelo/septum'

export interface OutboxOptions {
  readonly logger: Logger
  /** The most messages that may wait; one more is refused rather than held without end. */
  readonly limit: number
  /** How long a refusal asks to wait, or undefined when it is not a rate limit. */
  readonly retryAfterMs: (error: unknown) => number | undefined
}

interface Waiting {
  readonly send: () => Promise<void>
  readonly label: string
}

export type Delivery = 'sent' | 'queued'

/**
 * Outbound messages Signal refused for its rate limit wait here and go again, in order, once the
 * wait is over. While any wait, a new message queues behind them, so nothing overtakes.
 */
export class Outbox {
  readonly #waiting: Waiting[] = []
  #timer: ReturnType<typeof setTimeout> | undefined
  #retryAt: number | undefined
  #stopped = false

  constructor(private readonly options: OutboxOptions) {}

  get waiting(): number {
    return this.#waiting.length
  }

  /** Seconds until the next try, while messages wait. */
  get retryInSeconds(): number | undefined {
    return this.#retryAt === undefined
      ? undefined
      : Math.max(0, Math.ceil((this.#retryAt - Date.now()) / 1000))
  }

  /** Sends now, or queues behind what already waits; resolves `queued` once the message is held. */
  async deliver(send: () => Promise<void>, label: string): Promise<Delivery> {
    if (this.#waiting.length > 0) {
      this.#hold({ send, label })
      return 'queued'
    }
    try {
      await send()
      return 'sent'
    } catch (error) {
      const wait = this.options.retryAfterMs(error)
      if (wait === undefined) throw error
      this.#schedule(wait)
      this.#hold({ send, label })
      return 'queued'
    }
  }

  /** Forgets what waits, saying how much is lost. */
  stop(): void {
    this.#stopped = true
    clearTimeout(this.#timer)
    this.#retryAt = undefined
    const lost = this.#waiting.splice(0)
    if (lost.length > 0) {
      this.options.logger.warn('signal: stopped with messages still waiting for the rate limit; not sent', {
        lost: lost.length,
      })
    }
  }

  #hold(waiting: Waiting): void {
    if (this.#waiting.length >= this.options.limit) {
      throw new Error(
        `signal: not sent: ${this.options.limit} messages already wait for Signal's rate limit to pass`,
      )
    }
    this.#waiting.push(waiting)
    this.options.logger.warn('signal: Signal rate-limited the account; messages wait to be sent in order', {
      waiting: this.#waiting.length,
      retryInSeconds: this.retryInSeconds,
    })
  }

  #schedule(waitMs: number): void {
    clearTimeout(this.#timer)
    this.#retryAt = Date.now() + waitMs
    this.#timer = setTimeout(() => void this.#flush(), waitMs)
  }

  async #flush(): Promise<void> {
    this.#retryAt = undefined
    while (!this.#stopped) {
      const next = this.#waiting[0]
      if (next === undefined) return
      try {
        await next.send()
      } catch (error) {
        const wait = this.options.retryAfterMs(error)
        if (wait !== undefined) {
          this.options.logger.warn('signal: still rate-limited; messages keep waiting', {
            waiting: this.#waiting.length,
            retryInSeconds: Math.ceil(wait / 1000),
          })
          this.#schedule(wait)
          return
        }
        this.options.logger.error('signal: a message that waited for the rate limit could not be sent', {
          message: next.label,
          error: error instanceof Error ? error.message : String(error),
        })
      }
      this.#waiting.shift()
      if (this.#waiting.length === 0) this.options.logger.info('signal: every waiting message has been sent')
    }
  }
}
