import type { Logger } from '@mycelo/septum'
import type { Lane } from './lanes.ts'

/** Why a message left the outbox without being sent. */
export type DropReason = 'age' | 'refused'

/** The last message dropped on a channel: when, where and why. */
export interface LastDrop {
  readonly at: Date
  readonly conversationId: string
  readonly reason: DropReason
  /** For a refusal, the channel's own words; for age, how old it was. */
  readonly detail: string
}

/** One conversation's share of what waits. */
export interface ConversationWaiting {
  readonly conversationId: string
  readonly waiting: number
  /** When its oldest waiting message was accepted. */
  readonly oldest: Date
}

/** One channel's outbox as every surface reads it. */
export interface ChannelOutbox {
  readonly channel: string
  readonly waiting: number
  readonly conversations: readonly ConversationWaiting[]
  /** Since this start: dropped as older than the outbox's age, and refused by the channel. */
  readonly dropped: { readonly age: number; readonly refused: number }
  readonly lastDrop?: LastDrop
}

export interface OutboxReport {
  /** How old a message may be before it is dropped rather than sent late, in seconds. */
  readonly maxAgeSeconds: number
  readonly channels: readonly ChannelOutbox[]
}

/** What was dropped per channel since start-up, kept beside what waits. */
export class DropTally {
  readonly #counts = new Map<string, { age: number; refused: number; last?: LastDrop }>()

  note(channel: string, drop: LastDrop): void {
    const counts = this.#counts.get(channel) ?? { age: 0, refused: 0 }
    counts[drop.reason] += 1
    counts.last = drop
    this.#counts.set(channel, counts)
  }

  /** Logs a message dropped, and counts it; answers the log line, which its caller may hear too. */
  drop(logger: Logger, drop: LastDrop & { readonly channel: string }): string {
    const { channel, conversationId, reason, detail, at } = drop
    const line =
      reason === 'age'
        ? 'outbox: dropped a message older than the outbox keeps messages; not sent late'
        : 'outbox: the channel refused a message; dropped'
    const meta = { channel, conversationId, why: detail }
    if (reason === 'age') logger.warn(line, meta)
    else logger.error(line, meta)
    this.note(channel, { at, conversationId, reason, detail })
    return line
  }

  channels(): Iterable<string> {
    return this.#counts.keys()
  }

  of(channel: string): Pick<ChannelOutbox, 'dropped' | 'lastDrop'> {
    const counts = this.#counts.get(channel)
    if (counts === undefined) return { dropped: { age: 0, refused: 0 } }
    const dropped = { age: counts.age, refused: counts.refused }
    return counts.last === undefined ? { dropped } : { dropped, lastDrop: counts.last }
  }
}

/** What waits per channel and conversation, from the lanes, beside what was dropped. */
export function reportOf(from: { lanes: Iterable<Lane>; tally: DropTally; maxAgeMs: number }): OutboxReport {
  const byChannel = new Map<string, ConversationWaiting[]>()
  for (const lane of from.lanes) {
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
  const names = new Set([...byChannel.keys(), ...from.tally.channels()])
  const channels = [...names].sort().map((channel) => {
    const conversations = byChannel.get(channel) ?? []
    const waiting = conversations.reduce((sum, one) => sum + one.waiting, 0)
    return { channel, waiting, conversations, ...from.tally.of(channel) }
  })
  return { maxAgeSeconds: Math.round(from.maxAgeMs / 1000), channels }
}
