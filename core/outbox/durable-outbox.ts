import type { DeliveryOptions, Logger, OutgoingContent, PushTarget } from '@mycelo/septum'
import { isTemporaryFailure } from '@mycelo/septum'
import type { OutboxRows } from '../store/outbox-rows.ts'
import { DeadlineExceeded, isFulfilled, logExpiry } from '../supervision/deadline.ts'
import { decodeContent, encodeContent } from './content-codec.ts'
import { newDeliveryId } from './delivery-id.ts'
import { ChannelLanes, Entry, type EntryOwner, type Lane, UNSTAMPED } from './lanes.ts'
import { type DropReason, DropTally, type OutboxReport, reportOf } from './tally.ts'

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
 * with a log line, as does age.
 */
export class DurableOutbox implements EntryOwner {
  readonly #options: DurableOutboxOptions
  readonly #channels = new Map<string, ChannelLanes>()
  readonly #tally = new DropTally()
  readonly #idle: (() => void)[] = []
  readonly #now: () => number
  readonly answerWithinMs: number
  readonly sendWithinMs: number
  /** Lanes with a try under way. */
  #trying = 0
  #closing = false
  #closed = false

  constructor(options: DurableOutboxOptions) {
    this.#options = options
    this.#now = options.now ?? Date.now
    this.answerWithinMs = options.answerWithinMs
    this.sendWithinMs = options.sendWithinMs
    for (const row of options.rows.all()) {
      const entry = new Entry(this, row.deliveryId, decodeContent(row.content), row.acceptedAt, row.id)
      this.#enqueue({ channel: row.channel, conversationId: row.conversationId }, entry).held = true
    }
  }

  /** How many messages wait on a channel, or on all. */
  waiting(channel?: string): number {
    if (channel !== undefined) return this.#channels.get(channel)?.waiting ?? 0
    let count = 0
    for (const lanes of this.#channels.values()) count += lanes.waiting
    return count
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
    for (const lane of this.#allLanes()) if (lane.held) left += lane.entries.length
    if (left > 0)
      this.#options.logger.info('outbox: sending what was accepted before the last stop', { waiting: left })
    for (const lane of this.#allLanes()) {
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
    const book = this.#book(target.channel)
    if (book.waiting >= this.#options.limit) return Promise.reject(new Error(this.#full(target.channel)))
    // When it was accepted is read only if something will read it (see #stamp): a clock read costs
    // about as much here as a tenth of a message's path.
    const entry = new Entry(this, newDeliveryId(), content, UNSTAMPED)
    const lane = this.#enqueue(target, entry, book)
    if (lane.entries.length > 1 || lane.held || lane.timer !== undefined || lane.trying !== undefined) {
      // Those ahead first (only a head being tried can be unrecorded), so the store keeps the order.
      for (const waiting of lane.entries) this.#record(lane.target, waiting)
      return ACCEPTED
    }
    // Just accepted: live, and not old; tried now, with no further check.
    const pending = this.#handOver(lane, entry)
    if (isFulfilled(pending)) {
      // Taken before the call returned: sent, and nothing to wait for, watch or write.
      this.#settle(lane)
      this.#next(lane)
      return ACCEPTED
    }
    this.#stamp(entry)
    const answered = answerOf(entry)
    this.#follow(lane, entry, pending)
    return answered
  }

  /** Whether a message for `channel` would be taken now rather than refused at once (see accept). */
  accepts(channel: string): boolean {
    return this.#refusal(channel) === undefined && this.waiting(channel) < this.#options.limit
  }

  /** A channel is back: its conversations waiting for it go now rather than at their next try. */
  wake(channel: string): void {
    const book = this.#channels.get(channel)
    if (book === undefined) return
    for (const lane of book.lanes()) {
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
    for (const lane of this.#allLanes()) clearTimeout(lane.timer)
    if (this.#trying > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined
      const expiry = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, deadlineMs)
      })
      await Promise.race([this.settled(), expiry])
      clearTimeout(timer)
    }
    // What is still being tried, its caller not yet told, is kept for the next start too.
    for (const lane of this.#allLanes()) {
      lane.trying?.abandon()
      lane.trying = undefined
      for (const entry of lane.entries) this.keep(lane, entry)
    }
    this.#trying = 0
    for (const resolve of this.#idle.splice(0)) resolve()
    this.#closed = true
    const waiting = this.waiting()
    if (waiting > 0) {
      const channels: Record<string, number> = {}
      for (const [name, lanes] of this.#channels) if (lanes.waiting > 0) channels[name] = lanes.waiting
      this.#options.logger.info('outbox: messages wait for the next start', { waiting, channels })
    }
  }

  /** What waits per channel and conversation, and what was dropped and why. */
  report(): OutboxReport {
    return reportOf({ lanes: this.#allLanes(), tally: this.#tally, maxAgeMs: this.#options.maxAgeMs })
  }

  /** Records the entry (unless it is), then tells its caller, if one waits, that it was accepted. */
  keep(lane: Lane, entry: Entry): void {
    this.#record(lane.target, entry)
    const resolve = entry.resolve
    if (resolve === undefined) return
    entry.resolve = undefined
    entry.reject = undefined
    resolve()
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
      this.#tell(entry, undefined)
      this.#settle(lane)
      this.#next(lane)
      return
    }
    const { channel } = lane.target
    if (error instanceof DeadlineExceeded) logExpiry(this.#options.logger, channel)(error)
    const words = error instanceof Error ? error.message : String(error)
    const temporary =
      isTemporaryFailure(error) || error instanceof DeadlineExceeded || !this.#options.live(channel)
    if (temporary || this.#closed) {
      this.keep(lane, entry)
      this.#later(lane, words)
      return
    }
    this.#tell(entry, error)
    this.#drop(lane, { reason: 'refused', detail: words })
    this.#next(lane)
  }

  /**
   * The channel took a message whose try had timed out: unless it is being tried again already, it
   * is not sent a second time.
   */
  late(lane: Lane, entry: Entry): void {
    if (this.#closed || lane.entries[0] !== entry || lane.trying !== undefined) return
    clearTimeout(lane.timer)
    lane.timer = undefined
    this.#settle(lane)
    this.#run(lane)
  }

  /**
   * Gives an entry the time it was accepted, unless it has it: every entry has it before anything
   * reads it (its row, its age, the report); only one whose first hand-over is running lacks it.
   */
  #stamp(entry: Entry): void {
    if (entry.acceptedAt === UNSTAMPED) entry.acceptedAt = this.#now()
  }

  /** Writes an entry's row unless it has one: the store now holds it for the next start. */
  #record(target: PushTarget, entry: Entry): void {
    if (entry.id !== undefined || this.#closed) return
    this.#stamp(entry)
    entry.id = this.#options.rows.add({
      channel: target.channel,
      conversationId: target.conversationId,
      deliveryId: entry.deliveryId,
      content: encodeContent(entry.content),
      acceptedAt: entry.acceptedAt,
    })
  }

  /** Tells a caller still waiting on the first try: sent (no error) or refused. */
  #tell(entry: Entry, error: unknown): void {
    const { resolve, reject } = entry
    if (resolve === undefined || reject === undefined) return
    entry.resolve = undefined
    entry.reject = undefined
    if (error === undefined) resolve()
    else reject(error)
  }

  #refusal(channel: string): string | undefined {
    if (this.#closing) return `the bot is stopping; nothing was sent on "${channel}"`
    if (!this.#options.live(channel)) return `channel "${channel}" is not live; nothing was sent`
    return undefined
  }

  #full(channel: string): string {
    return `channel "${channel}" already has ${this.#options.limit} messages waiting to be sent; nothing was sent`
  }

  /** The channel's lanes, made empty if it has none. */
  #book(channel: string): ChannelLanes {
    let book = this.#channels.get(channel)
    if (book === undefined) {
      book = new ChannelLanes()
      this.#channels.set(channel, book)
    }
    return book
  }

  #enqueue(target: PushTarget, entry: Entry, book = this.#book(target.channel)): Lane {
    const lane = book.lane(target)
    lane.entries.push(entry)
    book.waiting += 1
    return lane
  }

  *#allLanes(): Generator<Lane> {
    for (const book of this.#channels.values()) yield* book.lanes()
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
      this.#stamp(entry)
      const age = this.#now() - entry.acceptedAt
      if (age > this.#options.maxAgeMs) {
        this.#drop(lane, { reason: 'age', detail: `${Math.round(age / 1000)} s old` })
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
      this.#tell(entry, undefined)
      this.#settle(lane)
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

  /** The first entry went: forgotten here and in the store. */
  #settle(lane: Lane): void {
    const entry = lane.entries.shift()
    if (entry === undefined) return
    lane.failures = 0
    lane.book.waiting -= 1
    // After close the store may be gone; the row stays and the next start sends it again.
    if (!this.#closed && entry.id !== undefined) this.#options.rows.remove(entry.id)
  }

  #drop(lane: Lane, drop: { reason: DropReason; detail: string }): void {
    const line = this.#tally.drop(this.#options.logger, {
      ...lane.target,
      ...drop,
      at: new Date(this.#now()),
    })
    // A caller still waiting on its first try hears why it went nowhere.
    const first = lane.entries[0]
    if (first !== undefined) this.#tell(first, new Error(`${line}: ${drop.detail}`))
    this.#settle(lane)
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

/** The promise a caller waits on while its message's first try is under way: the entry settles it. */
function answerOf(entry: Entry): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    entry.resolve = resolve
    entry.reject = reject
  })
}
