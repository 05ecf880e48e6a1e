import type { Logger } from '../contract/index.ts'

export interface OutboxOptions {
  readonly logger: Logger
  /** The most messages that may wait in all; one more is refused rather than held without end. */
  readonly limit: number
  /** How long a refusal asks to wait, or undefined when it is not a rate limit. */
  readonly retryAfterMs: (error: unknown) => number | undefined
  /** The channel's name, leading every log line: `discord`. */
  readonly channel: string
  /** Who limited whom, as the log says it: `Discord rate-limited the bot`. */
  readonly limitedBy: string
  /** The error a send gets when `limit` messages already wait, in the channel's own words. */
  readonly full: (limit: number) => Error
}

interface Waiting {
  readonly send: () => Promise<void>
  readonly label: string
}

/** One conversation's messages waiting for the rate limit, in the order they were sent. */
interface Lane {
  readonly waiting: Waiting[]
  timer: ReturnType<typeof setTimeout> | undefined
  retryAt: number
}

export type Delivery = 'sent' | 'queued'

/**
 * Outbound messages a service refused for its rate limit wait here and go again, in order, once
 * the wait is over. While any wait for a conversation, a new message to it queues behind them, so
 * nothing overtakes; other conversations are not held up.
 */
export class Outbox {
  readonly #lanes = new Map<string, Lane>()
  #stopped = false

  constructor(private readonly options: OutboxOptions) {}

  /** How many messages wait, in all conversations. */
  get waiting(): number {
    let count = 0
    for (const lane of this.#lanes.values()) count += lane.waiting.length
    return count
  }

  /** Seconds until the next try, while messages wait. */
  get retryInSeconds(): number | undefined {
    const next = Math.min(...[...this.#lanes.values()].map((lane) => lane.retryAt))
    return Number.isFinite(next) ? Math.max(0, Math.ceil((next - Date.now()) / 1000)) : undefined
  }

  /** Sends now, or queues behind what already waits for that conversation; resolves `queued` once held. */
  async deliver(conversation: string, send: () => Promise<void>, label: string): Promise<Delivery> {
    const lane = this.#lanes.get(conversation)
    if (lane !== undefined) {
      this.#hold(lane, { send, label })
      return 'queued'
    }
    try {
      await send()
      return 'sent'
    } catch (error) {
      const wait = this.options.retryAfterMs(error)
      if (wait === undefined) throw error
      const opened: Lane = { waiting: [], timer: undefined, retryAt: Number.POSITIVE_INFINITY }
      this.#lanes.set(conversation, opened)
      this.#schedule(conversation, opened, wait)
      try {
        this.#hold(opened, { send, label })
      } catch (full) {
        clearTimeout(opened.timer)
        this.#lanes.delete(conversation)
        throw full
      }
      return 'queued'
    }
  }

  /** Forgets what waits, saying how much is lost. */
  stop(): void {
    this.#stopped = true
    const lost = this.waiting
    for (const lane of this.#lanes.values()) clearTimeout(lane.timer)
    this.#lanes.clear()
    if (lost > 0) {
      this.options.logger.warn(
        `${this.options.channel}: stopped with messages still waiting for the rate limit; not sent`,
        {
          lost,
        },
      )
    }
  }

  #hold(lane: Lane, waiting: Waiting): void {
    if (this.waiting >= this.options.limit) {
      throw this.options.full(this.options.limit)
    }
    lane.waiting.push(waiting)
    this.options.logger.warn(
      `${this.options.channel}: ${this.options.limitedBy}; messages wait to be sent in order`,
      {
        waiting: this.waiting,
        retryInSeconds: this.retryInSeconds,
      },
    )
  }

  #schedule(conversation: string, lane: Lane, waitMs: number): void {
    lane.retryAt = Date.now() + waitMs
    lane.timer = setTimeout(() => void this.#flush(conversation, lane), waitMs)
  }

  async #flush(conversation: string, lane: Lane): Promise<void> {
    while (!this.#stopped) {
      const next = lane.waiting[0]
      if (next === undefined) break
      try {
        await next.send()
      } catch (error) {
        const wait = this.options.retryAfterMs(error)
        if (wait !== undefined) {
          this.options.logger.warn(`${this.options.channel}: still rate-limited; messages keep waiting`, {
            waiting: this.waiting,
            retryInSeconds: Math.ceil(wait / 1000),
          })
          this.#schedule(conversation, lane, wait)
          return
        }
        this.options.logger.error(
          `${this.options.channel}: a message that waited for the rate limit could not be sent`,
          {
            message: next.label,
            error: error instanceof Error ? error.message : String(error),
          },
        )
      }
      lane.waiting.shift()
    }
    if (this.#lanes.get(conversation) === lane) this.#lanes.delete(conversation)
    if (!this.#stopped)
      this.options.logger.info(`${this.options.channel}: the messages that waited have been sent`, {
        conversation,
      })
  }
}
