import type { Logger } from '../contract/index.ts'
import { TemporaryFailure } from './temporary.ts'

export interface OutboxOptions {
  readonly logger: Logger
  /** The most messages that may wait in all; one more is refused at once rather than held without end. */
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
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

/** One conversation's messages, in the order they were handed over; the first is the one being sent. */
interface Lane {
  readonly waiting: Waiting[]
  /** When the rate limit that holds this lane passes; undefined while nothing holds it. */
  retryAt: number | undefined
  timer: ReturnType<typeof setTimeout> | undefined
  wake: (() => void) | undefined
}

/** A conversation's share of what waits, for health and metrics. */
export interface LaneCount {
  readonly conversation: string
  readonly waiting: number
  readonly rateLimited: boolean
}

/**
 * Sends one conversation's messages one at a time, in the order they were handed over, whether
 * they came one after another or all at once. One the service refuses for its rate limit is tried
 * again once the wait is over, and nothing behind it overtakes; other conversations are not held up.
 * `deliver` resolves once the service took the message, so a caller that must not lose it (the
 * core's durable outbox) knows when it may forget it.
 */
export class Outbox {
  readonly #lanes = new Map<string, Lane>()
  #count = 0
  #stopped = false

  constructor(private readonly options: OutboxOptions) {}

  /** How many messages wait or are being sent, in all conversations. */
  get waiting(): number {
    return this.#count
  }

  /** How many wait behind a rate limit, in all conversations. */
  get rateLimited(): number {
    let count = 0
    for (const lane of this.#lanes.values()) if (lane.retryAt !== undefined) count += lane.waiting.length
    return count
  }

  /** Seconds until the next try of a rate-limited conversation, while one is held. */
  get retryInSeconds(): number | undefined {
    let next = Number.POSITIVE_INFINITY
    for (const lane of this.#lanes.values())
      if (lane.retryAt !== undefined) next = Math.min(next, lane.retryAt)
    return Number.isFinite(next) ? Math.max(0, Math.ceil((next - Date.now()) / 1000)) : undefined
  }

  /** Per conversation, what waits there. */
  lanes(): LaneCount[] {
    return [...this.#lanes].map(([conversation, lane]) => ({
      conversation,
      waiting: lane.waiting.length,
      rateLimited: lane.retryAt !== undefined,
    }))
  }

  /**
   * Sends once everything handed over before it for this conversation is sent. Resolves when the
   * service took it; rejects with the service's refusal, with `full` at once when `limit` messages
   * already wait, and with a TemporaryFailure when the outbox stops before it went.
   */
  deliver(conversation: string, send: () => Promise<void>, label: string): Promise<void> {
    if (this.#stopped) {
      return Promise.reject(new TemporaryFailure(`${this.options.channel}: stopped; "${label}" was not sent`))
    }
    if (this.#count >= this.options.limit) return Promise.reject(this.options.full(this.options.limit))
    return new Promise<void>((resolve, reject) => {
      let lane = this.#lanes.get(conversation)
      const idle = lane === undefined
      if (lane === undefined) {
        lane = { waiting: [], retryAt: undefined, timer: undefined, wake: undefined }
        this.#lanes.set(conversation, lane)
      }
      lane.waiting.push({ send, label, resolve, reject })
      this.#count += 1
      if (idle) void this.#drain(conversation, lane)
    })
  }

  /** Gives up on what waits: each waiting send rejects with a TemporaryFailure, and the log says how many. */
  stop(): void {
    this.#stopped = true
    const left = this.#count
    for (const lane of this.#lanes.values()) {
      clearTimeout(lane.timer)
      lane.wake?.()
      // The first may be on its way; the lane's own loop settles it when the service answers.
      for (const waiting of lane.waiting.splice(1)) {
        waiting.reject(
          new TemporaryFailure(`${this.options.channel}: stopped; "${waiting.label}" was not sent`),
        )
      }
    }
    this.#count = [...this.#lanes.values()].reduce((sum, lane) => sum + lane.waiting.length, 0)
    if (left > 0) {
      this.options.logger.warn(
        `${this.options.channel}: stopped with messages still waiting; not sent here`,
        {
          waiting: left,
        },
      )
    }
  }

  async #drain(conversation: string, lane: Lane): Promise<void> {
    for (let next = lane.waiting[0]; next !== undefined; next = lane.waiting[0]) {
      const settle = await this.#attempt(next, lane)
      if (settle === undefined) continue
      // Counted out before its caller hears, so what the caller reads next is already true.
      lane.waiting.shift()
      this.#count -= 1
      settle()
    }
    this.#lanes.delete(conversation)
  }

  /** One try of the lane's first message: how to tell its caller, or undefined to try it again. */
  async #attempt(next: Waiting, lane: Lane): Promise<(() => void) | undefined> {
    const stopped = () =>
      next.reject(new TemporaryFailure(`${this.options.channel}: stopped; "${next.label}" was not sent`))
    if (this.#stopped && lane.retryAt !== undefined) return stopped
    try {
      await next.send()
      if (lane.retryAt !== undefined) this.#released(lane)
      return next.resolve
    } catch (error) {
      const wait = this.options.retryAfterMs(error)
      if (wait === undefined) return () => next.reject(error)
      if (this.#stopped) return stopped
      this.#hold(lane, wait)
      await new Promise<void>((wake) => {
        lane.wake = wake
        lane.timer = setTimeout(wake, wait)
      })
      lane.wake = undefined
      return undefined
    }
  }

  #hold(lane: Lane, waitMs: number): void {
    const first = lane.retryAt === undefined
    lane.retryAt = Date.now() + waitMs
    const meta = { waiting: this.#count, retryInSeconds: Math.ceil(waitMs / 1000) }
    if (first) {
      this.options.logger.warn(
        `${this.options.channel}: ${this.options.limitedBy}; messages wait to be sent in order`,
        meta,
      )
    } else {
      this.options.logger.warn(`${this.options.channel}: still rate-limited; messages keep waiting`, meta)
    }
  }

  #released(lane: Lane): void {
    lane.retryAt = undefined
    this.options.logger.info(
      `${this.options.channel}: the rate limit passed; waiting messages go on in order`,
      {
        waiting: this.#count - 1,
      },
    )
  }
}
