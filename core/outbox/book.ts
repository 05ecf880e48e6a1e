import type { Logger, PushTarget } from '@mycelo/septum'
import type { OutboxRows } from '../store/outbox-rows.ts'
import { decodeContent, encodeContent } from './content-codec.ts'
import { ChannelLanes, Entry, type EntryOwner, type Lane, UNSTAMPED } from './lanes.ts'
import { type DropReason, DropTally, type OutboxReport, reportOf } from './tally.ts'

export interface OutboxBookOptions {
  readonly rows: OutboxRows
  readonly logger: Logger
  readonly now: () => number
  /** Older than this, a message is dropped rather than sent late (for the report). */
  readonly maxAgeMs: number
}

/**
 * What the outbox holds: each channel's conversations and their messages in memory, each message's
 * row in the store once it must outlive this process, and what was dropped and why. When and how
 * a message is tried is the outbox's (DurableOutbox); this is where it is kept.
 */
export class OutboxBook {
  readonly #options: OutboxBookOptions
  readonly #channels = new Map<string, ChannelLanes>()
  readonly #tally = new DropTally()
  /** After close the store may be gone: nothing more is written or deleted. */
  closed = false

  constructor(options: OutboxBookOptions) {
    this.#options = options
  }

  /** What the last run left, in the order it was accepted, held until the outbox begins. */
  load(owner: EntryOwner): void {
    for (const row of this.#options.rows.all()) {
      const entry = new Entry(owner, row.deliveryId, decodeContent(row.content), row.acceptedAt, row.id)
      this.enqueue({ channel: row.channel, conversationId: row.conversationId }, entry).held = true
    }
  }

  /** How many messages wait on a channel, or on all. */
  waiting(channel?: string): number {
    if (channel !== undefined) return this.#channels.get(channel)?.waiting ?? 0
    let count = 0
    for (const lanes of this.#channels.values()) count += lanes.waiting
    return count
  }

  /** Per channel, how many wait, for the channels where some do. */
  waitingByChannel(): Record<string, number> {
    const channels: Record<string, number> = {}
    for (const [name, lanes] of this.#channels) if (lanes.waiting > 0) channels[name] = lanes.waiting
    return channels
  }

  /** The channel's lanes, made empty if it has none. */
  channel(name: string): ChannelLanes {
    let book = this.#channels.get(name)
    if (book === undefined) {
      book = new ChannelLanes()
      this.#channels.set(name, book)
    }
    return book
  }

  /** Puts the entry last in its conversation's lane. */
  enqueue(target: PushTarget, entry: Entry, book = this.channel(target.channel)): Lane {
    const lane = book.lane(target)
    lane.entries.push(entry)
    book.waiting += 1
    return lane
  }

  *lanes(): Generator<Lane> {
    for (const book of this.#channels.values()) yield* book.lanes()
  }

  /**
   * Gives an entry the time it was accepted, unless it has it: every entry has it before anything
   * reads it (its row, its age, the report); only one whose first hand-over is running lacks it.
   */
  stamp(entry: Entry): void {
    if (entry.acceptedAt === UNSTAMPED) entry.acceptedAt = this.#options.now()
  }

  /** Writes an entry's row unless it has one: the store now holds it for the next start. */
  record(target: PushTarget, entry: Entry): void {
    if (entry.id !== undefined || this.closed) return
    this.stamp(entry)
    entry.id = this.#options.rows.add({
      channel: target.channel,
      conversationId: target.conversationId,
      deliveryId: entry.deliveryId,
      content: encodeContent(entry.content),
      acceptedAt: entry.acceptedAt,
    })
  }

  /** Records the entry (unless it is), then tells its caller, if one waits, that it was accepted. */
  keep(lane: Lane, entry: Entry): void {
    this.record(lane.target, entry)
    const resolve = entry.resolve
    if (resolve === undefined) return
    entry.resolve = undefined
    entry.reject = undefined
    resolve()
  }

  /** The first entry went: forgotten here and in the store. */
  settle(lane: Lane): void {
    const entry = lane.entries.shift()
    if (entry === undefined) return
    lane.failures = 0
    lane.book.waiting -= 1
    // After close the store may be gone; the row stays and the next start sends it again.
    if (!this.closed && entry.id !== undefined) this.#options.rows.remove(entry.id)
  }

  /** The first entry leaves unsent: logged and counted, and a caller still waiting hears why. */
  drop(lane: Lane, drop: { reason: DropReason; detail: string }): void {
    const line = this.#tally.drop(this.#options.logger, {
      ...lane.target,
      ...drop,
      at: new Date(this.#options.now()),
    })
    const first = lane.entries[0]
    if (first !== undefined) tell(first, new Error(`${line}: ${drop.detail}`))
    this.settle(lane)
  }

  /** What waits per channel and conversation, and what was dropped and why. */
  report(): OutboxReport {
    return reportOf({ lanes: this.lanes(), tally: this.#tally, maxAgeMs: this.#options.maxAgeMs })
  }
}

/** Tells a caller still waiting on the first try: sent (no error) or refused. */
export function tell(entry: Entry, error: unknown): void {
  const { resolve, reject } = entry
  if (resolve === undefined || reject === undefined) return
  entry.resolve = undefined
  entry.reject = undefined
  if (error === undefined) resolve()
  else reject(error)
}
