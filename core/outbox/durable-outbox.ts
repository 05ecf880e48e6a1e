import type { DeliveryOptions, Logger, OutgoingContent, PushTarget } from '@mycelo/septum'
import { isTemporaryFailure } from '@mycelo/septum'
import type { OutboxRows } from '../store/outbox-rows.ts'
import { DeadlineExceeded, isFulfilled, logExpiry } from '../supervision/deadline.ts'
import { OutboxBook, tell } from './book.ts'
import { newDeliveryId } from './delivery-id.ts'
import { Entry, type EntryOwner, type Lane, UNSTAMPED } from './lanes.ts'
import type { OutboxReport } from './tally.ts'

/** What a caller hears once its message is the outbox's (sent at once, or recorded): already resolved. */
const ACCEPTED: Promise<void> = Promise.resolve()

export interface DurableOutboxOptions {
  readonly rows: OutboxRows
  /** Hands one message to its channel; resolves once the channel took it. The outbox bounds the wait. */
  readonly send: (target: PushTarget, content: OutgoingContent, delivery: DeliveryOptions) => Promise<void>
  /** Whether a channel is a live hypha now. */
  readonly live: (channel: string) => boolean
  readonly logger: Logger
  /** Older than this, a message is dropped rather than sent late. */
  readonly maxAgeMs: number
  /** The most messages that may wait on one channel; one more is refused to its caller at once. */
  readonly limit: number
  /** The wait before a conversation is tried again after a temporary failure, doubling up to maxMs. */
  readonly retry?: { readonly initialMs: number; readonly maxMs: number }
  /** How long a caller whose message goes at once waits to hear how its first try went. */
  readonly answerWithinMs: number
  /** How long one try may take (a rate limit's waits included) before it counts as failed for now. */
  readonly sendWithinMs: number
  readonly now?: () => number
}

/**
 * Every message the core sends goes through here. It is written to the store before its caller is
 * told it was accepted, sent in its conversation's order, and deleted once the channel took it; what
 * a stop, a crash or kill -9 leaves is sent at the next start. A failure the channel calls temporary
 * (not connected, stopping, timed out) keeps the message and tries again later; any other drops it
 * with a log line, as does age. What it holds, in memory and in the store, is its book (OutboxBook);
 * here is when and how each message is tried.
 */
export class DurableOutbox implements EntryOwner {
  readonly #options: DurableOutboxOptions
  readonly #book: OutboxBook
  readonly #idle: (() => void)[] = []
  readonly #now: () => number
  readonly answerWithinMs: number
  readonly sendWithinMs: number
  /** Lanes with a try under way. */
  #trying = 0
  #closing = false

  constructor(options: DurableOutboxOptions) {
    this.#options = options
    this.#now = options.now ?? Date.now
    this.answerWithinMs = options.answerWithinMs
    this.sendWithinMs = options.sendWithinMs
    this.#book = new OutboxBook({
      rows: options.rows,
      logger: options.logger,
      now: this.#now,
      maxAgeMs: options.maxAgeMs,
    })
    this.#book.load(this)
  }

  /** How many messages wait on a channel, or on all. */
  waiting(channel?: string): number {
    return this.#book.waiting(channel)
  }

  /**
   * Resolves once no conversation is being sent: each is empty, or waits for a later try. What a
   * test (or a stop) reads after it is what the channels were given.
   */
  settled(): Promise<void> {
    if (this.#trying === 0) return Promise.resolve()
    return new Promise((resolve) => this.#idle.push(resolve))
  }

  /** Starts sending: what the last run left first, in the order it was accepted. */
  begin(): void {
    let left = 0
    for (const lane of this.#book.lanes()) if (lane.held) left += lane.entries.length
    if (left > 0)
      this.#options.logger.info('outbox: sending what was accepted before the last stop', { waiting: left })
    for (const lane of this.#book.lanes()) {
      lane.held = false
      this.#run(lane)
    }
  }

  /**
   * Takes the message: from then on it is the outbox's to send. Refused at once, and never
   * recorded, for a channel that is not live, one with `limit` messages waiting, or while stopping.
   * A message with nothing ahead of it goes at once, and its caller hears how: resolved once sent,
   * rejected with the channel's refusal, or, kept for a later try (or no word within
   * `answerWithinMs`), recorded and then resolved. One that queues behind others is recorded and
   * resolves at once. Either way a message is in the store before its caller is told it was
   * accepted, and one the channel took at once never costs a write.
   */
  accept(target: PushTarget, content: OutgoingContent): Promise<void> {
    const refusal = this.#refusal(target.channel)
    if (refusal !== undefined) return Promise.reject(new Error(refusal))
    const book = this.#book.channel(target.channel)
    if (book.waiting >= this.#options.limit) return Promise.reject(new Error(this.#full(target.channel)))
    // When it was accepted is read only if something will read it (see OutboxBook.stamp): a clock
    // read costs about as much here as a tenth of a message's path.
    const entry = new Entry(this, newDeliveryId(), content, UNSTAMPED)
    const lane = this.#book.enqueue(target, entry, book)
    if (lane.entries.length > 1 || lane.held || lane.timer !== undefined || lane.trying !== undefined) {
      return this.#queued(lane)
    }
    // Just accepted: live, and not old; tried now, with no further check.
    const pending = this.#handOver(lane, entry)
    if (isFulfilled(pending)) {
      // Taken before the call returned: sent, and nothing to wait for, watch or write.
      this.#book.settle(lane)
      this.#next(lane)
      return ACCEPTED
    }
    return this.#firstTry(lane, entry, pending)
  }

  /** A message behind others: those ahead first (only a head being tried can be unrecorded), so the store keeps the order. */
  #queued(lane: Lane): Promise<void> {
    for (const waiting of lane.entries) this.#book.record(lane.target, waiting)
    return ACCEPTED
  }

  /** A message its channel did not take at once: its caller waits for the channel's word, or its own deadline. */
  #firstTry(lane: Lane, entry: Entry, pending: Promise<void>): Promise<void> {
    this.#book.stamp(entry)
    const answered = entry.answer()
    this.#follow(lane, entry, pending)
    return answered
  }

  /** Whether a message for `channel` would be taken now rather than refused at once (see accept). */
  accepts(channel: string): boolean {
    return this.#refusal(channel) === undefined && this.waiting(channel) < this.#options.limit
  }

  /** A channel is back: its conversations waiting for it go now rather than at their next try. */
  wake(channel: string): void {
    if (this.#book.waiting(channel) === 0) return
    for (const lane of this.#book.channel(channel).lanes()) {
      if (lane.trying !== undefined || lane.timer === undefined) continue
      clearTimeout(lane.timer)
      lane.timer = undefined
      lane.failures = 0
      this.#run(lane)
    }
  }

  /**
   * Takes nothing more, waits for the sends under way up to `deadlineMs`, and leaves the rest for
   * the next start, saying how many wait.
   */
  async close(deadlineMs: number): Promise<void> {
    this.#closing = true
    for (const lane of this.#book.lanes()) clearTimeout(lane.timer)
    if (this.#trying > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined
      const expiry = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, deadlineMs)
      })
      await Promise.race([this.settled(), expiry])
      clearTimeout(timer)
    }
    // What is still being tried, its caller not yet told, is kept for the next start too.
    for (const lane of this.#book.lanes()) {
      lane.trying?.abandon()
      lane.trying = undefined
      for (const entry of lane.entries) this.keep(lane, entry)
    }
    this.#trying = 0
    for (const resolve of this.#idle.splice(0)) resolve()
    this.#book.closed = true
    const waiting = this.waiting()
    if (waiting > 0) {
      const channels = this.#book.waitingByChannel()
      this.#options.logger.info('outbox: messages wait for the next start', { waiting, channels })
    }
  }

  /** What waits per channel and conversation, and what was dropped and why. */
  report(): OutboxReport {
    return this.#book.report()
  }

  /** Records the entry (unless it is), then tells its caller, if one waits, that it was accepted. */
  keep(lane: Lane, entry: Entry): void {
    this.#book.keep(lane, entry)
  }

  ended(lane: Lane, entry: Entry, sent: boolean, error: unknown): void {
    lane.trying = undefined
    this.#trying -= 1
    this.#outcome(lane, entry, sent, error)
    if (this.#trying === 0 && this.#idle.length > 0) for (const resolve of this.#idle.splice(0)) resolve()
  }

  /** What a try's end means for its message and the lane. */
  #outcome(lane: Lane, entry: Entry, sent: boolean, error: unknown): void {
    if (sent) {
      tell(entry, undefined)
      this.#book.settle(lane)
      this.#next(lane)
      return
    }
    const { channel } = lane.target
    if (error instanceof DeadlineExceeded) logExpiry(this.#options.logger, channel)(error)
    const words = error instanceof Error ? error.message : String(error)
    const temporary =
      isTemporaryFailure(error) || error instanceof DeadlineExceeded || !this.#options.live(channel)
    if (temporary || this.#book.closed) {
      this.keep(lane, entry)
      this.#later(lane, words)
      return
    }
    tell(entry, error)
    this.#book.drop(lane, { reason: 'refused', detail: words })
    this.#next(lane)
  }

  /**
   * The channel took a message whose try had timed out: unless it is being tried again already, it
   * is not sent a second time.
   */
  late(lane: Lane, entry: Entry): void {
    if (this.#book.closed || lane.entries[0] !== entry || lane.trying !== undefined) return
    clearTimeout(lane.timer)
    lane.timer = undefined
    this.#book.settle(lane)
    this.#run(lane)
  }

  #refusal(channel: string): string | undefined {
    if (this.#closing) return `the bot is stopping; nothing was sent on "${channel}"`
    if (!this.#options.live(channel)) return `channel "${channel}" is not live; nothing was sent`
    return undefined
  }

  #full(channel: string): string {
    return `channel "${channel}" already has ${this.#options.limit} messages waiting to be sent; nothing was sent`
  }

  /** Starts a lane that is idle (not tried, not held, not waiting for a later try). */
  #run(lane: Lane): void {
    if (lane.trying !== undefined || lane.held || lane.timer !== undefined || this.#closing) return
    this.#next(lane)
  }

  /** Tries the lane's first message, dropping what grew too old; forgets the lane once it is empty. */
  #next(lane: Lane): void {
    const { target } = lane
    for (let entry = lane.entries[0]; entry !== undefined; entry = lane.entries[0]) {
      if (this.#closing) return
      this.#book.stamp(entry)
      const age = this.#now() - entry.acceptedAt
      if (age > this.#options.maxAgeMs) {
        this.#book.drop(lane, { reason: 'age', detail: `${Math.round(age / 1000)} s old` })
        continue
      }
      if (!this.#options.live(target.channel)) {
        this.keep(lane, entry)
        this.#later(lane, 'the channel is not live')
        return
      }
      const pending = this.#handOver(lane, entry)
      if (!isFulfilled(pending)) {
        this.#follow(lane, entry, pending)
        return
      }
      // Taken at once: the next one goes in this same loop (no recursion however many wait).
      tell(entry, undefined)
      this.#book.settle(lane)
    }
    lane.book.forget(lane)
  }

  /** Gives the lane's first message to its channel: the channel's word on it, a promise however it answers. */
  #handOver(lane: Lane, entry: Entry): Promise<void> {
    try {
      return this.#options.send(lane.target, entry.content, { deliveryId: entry.deliveryId })
    } catch (error) {
      // A send that throws rather than rejects is answered the same way.
      return Promise.reject(error)
    }
  }

  /** Watches a try the channel has not answered yet, until its word or its deadline. */
  #follow(lane: Lane, entry: Entry, pending: Promise<void>): void {
    lane.trying = entry
    this.#trying += 1
    entry.try(lane, pending)
  }

  /** Tries the conversation again after a backoff (or once its channel is back). */
  #later(lane: Lane, why: string): void {
    if (this.#closing) return
    const { initialMs, maxMs } = this.#options.retry ?? { initialMs: 500, maxMs: 30_000 }
    const delay = Math.min(initialMs * 2 ** lane.failures, maxMs)
    lane.failures += 1
    if (lane.failures === 1) {
      this.#options.logger.warn('outbox: not sent for now; trying again', {
        channel: lane.target.channel,
        conversationId: lane.target.conversationId,
        waiting: lane.entries.length,
        why,
      })
    }
    lane.timer = setTimeout(() => {
      lane.timer = undefined
      this.#run(lane)
    }, delay)
    lane.timer.unref?.()
  }
}
