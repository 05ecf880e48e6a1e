import type { DeliveryOptions, Logger, OutgoingContent, PushTarget } from '@mycelo/septum'
import { isTemporaryFailure } from '@mycelo/septum'
import type { OutboxRows } from '../store/outbox-rows.ts'
import { DeadlineExceeded } from '../supervision/deadline.ts'
import { Watch, watchFor } from '../supervision/deadline-lines.ts'
import { decodeContent, encodeContent } from './content-codec.ts'
import { type ChannelOutbox, DropTally, type OutboxReport } from './tally.ts'

export interface DurableOutboxOptions {
  readonly rows: OutboxRows
  /** One try at one message, bounded by its deadline; resolves once the channel took it. */
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
  readonly now?: () => number
}

/**
 * A caller waiting on its message's first try. Sent resolves; kept (a temporary failure, or no word
 * within answerWithinMs) records the message first, then resolves; a refusal rejects.
 */
class Answer extends Watch {
  readonly #kept: () => void
  readonly #resolve: () => void
  readonly #reject: (error: unknown) => void
  #done = false

  constructor(options: { kept: () => void; resolve: () => void; reject: (error: unknown) => void }) {
    super()
    this.#kept = options.kept
    this.#resolve = options.resolve
    this.#reject = options.reject
  }

  sent(): void {
    if (this.#settle()) this.#resolve()
  }

  kept(): void {
    if (!this.#settle()) return
    this.#kept()
    this.#resolve()
  }

  refused(error: unknown): void {
    if (this.#settle()) this.#reject(error)
  }

  /** No word in time: the caller is told it was accepted, so the message is recorded now. */
  expire(): void {
    this.kept()
  }

  #settle(): boolean {
    if (this.#done) return false
    this.#done = true
    this.release()
    return true
  }
}

interface Entry {
  /** Its row in the store; undefined while it has been tried at once and its caller not yet told. */
  id: number | undefined
  readonly deliveryId: string
  readonly content: OutgoingContent
  readonly acceptedAt: number
  answer?: Answer
}

/** One conversation's accepted messages, oldest first; one is tried at a time. */
interface Lane {
  readonly target: PushTarget
  readonly entries: Entry[]
  running: boolean
  /** Left by the last run: sent once begin() says the channels are up, before anything newer. */
  held: boolean
  attempt: number
  timer: ReturnType<typeof setTimeout> | undefined
}

/**
 * Every message the core sends goes through here. It is written to the store before its caller is
 * told it was accepted, sent in its conversation's order, and deleted once the channel took it; what
 * a stop, a crash or kill -9 leaves is sent at the next start. A failure the channel calls temporary
 * (not connected, stopping, timed out) keeps the message and tries again later; any other drops it
 * with a log line, as does age.
 */
export class DurableOutbox {
  readonly #options: DurableOutboxOptions
  readonly #lanes = new Map<string, Lane>()
  readonly #waiting = new Map<string, number>()
  readonly #inFlight = new Set<Promise<unknown>>()
  readonly #tally = new DropTally()
  readonly #idle: (() => void)[] = []
  readonly #now: () => number
  #closing = false
  #closed = false

  constructor(options: DurableOutboxOptions) {
    this.#options = options
    this.#now = options.now ?? Date.now
    for (const row of options.rows.all()) {
      this.#enqueue(
        { channel: row.channel, conversationId: row.conversationId },
        {
          id: row.id,
          deliveryId: row.deliveryId,
          content: decodeContent(row.content),
          acceptedAt: row.acceptedAt,
        },
      ).held = true
    }
  }

  /** How many messages wait on a channel, or on all. */
  waiting(channel?: string): number {
    if (channel !== undefined) return this.#waiting.get(channel) ?? 0
    let count = 0
    for (const value of this.#waiting.values()) count += value
    return count
  }

  /**
   * Resolves once no conversation is being sent: each is empty, or waits for a later try. What a
   * test (or a stop) reads after it is what the channels were given.
   */
  settled(): Promise<void> {
    if (![...this.#lanes.values()].some((lane) => lane.running)) return Promise.resolve()
    return new Promise((resolve) => this.#idle.push(resolve))
  }

  /** Starts sending: what the last run left first, in the order it was accepted. */
  begin(): void {
    let left = 0
    for (const lane of this.#lanes.values()) if (lane.held) left += lane.entries.length
    if (left > 0)
      this.#options.logger.info('outbox: sending what was accepted before the last stop', { waiting: left })
    for (const lane of this.#lanes.values()) {
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
    const entry: Entry = { id: undefined, deliveryId: newDeliveryId(), content, acceptedAt: this.#now() }
    const lane = this.#enqueue(target, entry)
    if (lane.held || lane.entries.length > 1 || lane.timer !== undefined) {
      // Those ahead first (only a head being tried can be unrecorded), so the store keeps the order.
      for (const waiting of lane.entries) this.#record(lane.target, waiting)
      return Promise.resolve()
    }
    const answered = new Promise<void>((resolve, reject) => {
      entry.answer = new Answer({ kept: () => this.#record(target, entry), resolve, reject })
    })
    watchFor(this.#options.answerWithinMs, entry.answer!)
    this.#run(lane)
    return answered
  }

  /** Writes an entry's row unless it has one: the store now holds it for the next start. */
  #record(target: PushTarget, entry: Entry): void {
    if (entry.id !== undefined || this.#closed) return
    entry.id = this.#options.rows.add({
      channel: target.channel,
      conversationId: target.conversationId,
      deliveryId: entry.deliveryId,
      content: encodeContent(entry.content),
      acceptedAt: entry.acceptedAt,
    })
  }

  /** A channel is back: its conversations waiting for it go now rather than at their next try. */
  wake(channel: string): void {
    for (const lane of this.#lanes.values()) {
      if (lane.target.channel !== channel || lane.running || lane.timer === undefined) continue
      clearTimeout(lane.timer)
      lane.timer = undefined
      lane.attempt = 0
      this.#run(lane)
    }
  }

  /**
   * Takes nothing more, waits for the sends under way up to `deadlineMs`, and leaves the rest for
   * the next start, saying how many wait.
   */
  async close(deadlineMs: number): Promise<void> {
    this.#closing = true
    for (const lane of this.#lanes.values()) clearTimeout(lane.timer)
    if (this.#inFlight.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined
      const expiry = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, deadlineMs)
      })
      await Promise.race([Promise.allSettled([...this.#inFlight]), expiry])
      clearTimeout(timer)
    }
    // What is still being tried, its caller not yet told, is kept for the next start too.
    for (const lane of this.#lanes.values()) {
      for (const entry of lane.entries) {
        entry.answer?.kept()
        this.#record(lane.target, entry)
      }
    }
    this.#closed = true
    const waiting = this.waiting()
    if (waiting > 0) {
      const channels = Object.fromEntries(this.#waiting)
      this.#options.logger.info('outbox: messages wait for the next start', { waiting, channels })
    }
  }

  /** What waits per channel and conversation, and what was dropped and why. */
  report(): OutboxReport {
    const byChannel = new Map<string, ChannelOutbox['conversations'][number][]>()
    for (const lane of this.#lanes.values()) {
      const first = lane.entries[0]
      if (first === undefined) continue
      const list = byChannel.get(lane.target.channel) ?? []
      list.push({
        conversationId: lane.target.conversationId,
        waiting: lane.entries.length,
        oldest: new Date(first.acceptedAt),
      })
      byChannel.set(lane.target.channel, list)
    }
    const names = new Set([...byChannel.keys(), ...this.#tally.channels()])
    const channels = [...names].sort().map((channel) => ({
      channel,
      waiting: this.waiting(channel),
      conversations: byChannel.get(channel) ?? [],
      ...this.#tally.of(channel),
    }))
    return { maxAgeSeconds: Math.round(this.#options.maxAgeMs / 1000), channels }
  }

  #refusal(channel: string): string | undefined {
    if (this.#closing) return `the bot is stopping; nothing was sent on "${channel}"`
    if (!this.#options.live(channel)) return `channel "${channel}" is not live; nothing was sent`
    const limit = this.#options.limit
    if (this.waiting(channel) >= limit)
      return `channel "${channel}" already has ${limit} messages waiting to be sent; nothing was sent`
    return undefined
  }

  #enqueue(target: PushTarget, entry: Entry): Lane {
    const key = `${target.channel}\u0000${target.conversationId}`
    let lane = this.#lanes.get(key)
    if (lane === undefined) {
      lane = { target, entries: [], running: false, held: false, attempt: 0, timer: undefined }
      this.#lanes.set(key, lane)
    }
    lane.entries.push(entry)
    this.#waiting.set(target.channel, this.waiting(target.channel) + 1)
    return lane
  }

  #run(lane: Lane): void {
    if (lane.running || lane.held || lane.timer !== undefined || this.#closing) return
    lane.running = true
    const draining = this.#drain(lane).finally(() => {
      lane.running = false
      this.#inFlight.delete(draining)
      if (this.#inFlight.size === 0) for (const resolve of this.#idle.splice(0)) resolve()
    })
    this.#inFlight.add(draining)
  }

  async #drain(lane: Lane): Promise<void> {
    const { target } = lane
    for (let entry = lane.entries[0]; entry !== undefined && !this.#closing; entry = lane.entries[0]) {
      const age = this.#now() - entry.acceptedAt
      if (age > this.#options.maxAgeMs) {
        this.#drop(lane, { reason: 'age', detail: `${Math.round(age / 1000)} s old` })
        continue
      }
      if (!this.#options.live(target.channel)) {
        entry.answer?.kept()
        return this.#later(lane, 'the channel is not live')
      }
      try {
        await this.#options.send(target, entry.content, { deliveryId: entry.deliveryId })
      } catch (error) {
        const words = error instanceof Error ? error.message : String(error)
        const temporary =
          isTemporaryFailure(error) ||
          error instanceof DeadlineExceeded ||
          !this.#options.live(target.channel)
        if (temporary || this.#closed) {
          entry.answer?.kept()
          return this.#later(lane, words)
        }
        entry.answer?.refused(error)
        this.#drop(lane, { reason: 'refused', detail: words })
        continue
      }
      entry.answer?.sent()
      this.#settle(lane)
    }
    if (lane.entries.length === 0) this.#lanes.delete(`${target.channel}\u0000${target.conversationId}`)
  }

  /** The first entry went: forgotten here and in the store. */
  #settle(lane: Lane): void {
    const entry = lane.entries.shift()
    if (entry === undefined) return
    lane.attempt = 0
    this.#waiting.set(lane.target.channel, this.waiting(lane.target.channel) - 1)
    // After close the store may be gone; the row stays and the next start sends it again.
    if (!this.#closed && entry.id !== undefined) this.#options.rows.remove(entry.id)
  }

  #drop(lane: Lane, drop: { reason: 'age' | 'refused'; detail: string }): void {
    const { channel, conversationId } = lane.target
    const line =
      drop.reason === 'age'
        ? 'outbox: dropped a message older than the outbox keeps messages; not sent late'
        : 'outbox: the channel refused a message; dropped'
    const log = drop.reason === 'age' ? this.#options.logger.warn : this.#options.logger.error
    log.call(this.#options.logger, line, { channel, conversationId, why: drop.detail })
    this.#tally.note(channel, { at: new Date(this.#now()), conversationId, ...drop })
    // A caller still waiting on its first try hears why it went nowhere.
    lane.entries[0]?.answer?.refused(new Error(`${line}: ${drop.detail}`))
    this.#settle(lane)
  }

  /** Tries the conversation again after a backoff (or once its channel is back). */
  #later(lane: Lane, why: string): void {
    if (this.#closing) return
    const { initialMs, maxMs } = this.#options.retry ?? { initialMs: 500, maxMs: 30_000 }
    const delay = Math.min(initialMs * 2 ** lane.attempt, maxMs)
    lane.attempt += 1
    if (lane.attempt === 1) {
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

/** This process's part of every delivery id: random, so two runs never hand out the same one. */
const RUN_PREFIX = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) =>
  (byte % 36).toString(36),
).join('')
let deliveries = 0

/** 16 letters and digits, unique across runs: the run's random part, then a count (no draw per message). */
function newDeliveryId(): string {
  deliveries += 1
  return RUN_PREFIX + deliveries.toString(36).padStart(8, '0')
}
