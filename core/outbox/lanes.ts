import type { OutgoingContent, PushTarget } from '@mycelo/septum'
import { DeadlineExceeded } from '../supervision/deadline.ts'
import { Watch, watchFor } from '../supervision/deadline-lines.ts'

/** What an entry's tries tell the outbox. */
export interface EntryOwner {
  readonly answerWithinMs: number
  readonly sendWithinMs: number
  /** The caller's wait is over before the channel answered: record the message, then tell it. */
  keep(lane: Lane, entry: Entry): void
  /** A try ended in time: sent when `sent`, otherwise refused or failed for now with `error`. */
  ended(lane: Lane, entry: Entry, sent: boolean, error: unknown): void
  /** The channel took the message after its try's deadline had passed. */
  late(lane: Lane, entry: Entry): void
}

/** The time of an entry not stamped yet (see DurableOutbox.#stamp). */
export const UNSTAMPED = -1

/**
 * One accepted message, and the one deadline watch its try needs: first the caller's wait (the
 * caller then hears "accepted" and the message is recorded), then the try's own bound.
 */
export class Entry extends Watch {
  /** Its row in the store; undefined until it must outlive this process (see DurableOutbox.accept). */
  id: number | undefined
  /** The caller waiting on the message's first try; undefined once it was told. */
  resolve: (() => void) | undefined = undefined
  reject: ((error: unknown) => void) | undefined = undefined
  readonly #owner: EntryOwner
  #lane: Lane | undefined = undefined
  /** Counts tries, so the word on one given up on is told apart from the word on the current one. */
  #tries = 0
  #answering = false
  #over = true

  constructor(
    owner: EntryOwner,
    readonly deliveryId: string,
    readonly content: OutgoingContent,
    /** When it was accepted (ms since the epoch), or UNSTAMPED while its first hand-over runs. */
    public acceptedAt: number,
    id?: number,
  ) {
    super()
    this.#owner = owner
    this.id = id
  }

  /** The promise a caller waits on while the message's first try is under way: the entry settles it. */
  answer(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
  }

  /** Follows one try of the message, `pending` being the channel's word on it. */
  try(lane: Lane, pending: Promise<void>): void {
    const owner = this.#owner
    this.#lane = lane
    const tries = ++this.#tries
    this.#over = false
    this.#answering = this.resolve !== undefined && owner.answerWithinMs < owner.sendWithinMs
    watchFor(this.#answering ? owner.answerWithinMs : owner.sendWithinMs, this)
    pending.then(
      () => this.#end(tries, true, undefined),
      (error: unknown) => this.#end(tries, false, error),
    )
  }

  /** The outbox no longer waits for the try (it closed): its deadline is let go. */
  abandon(): void {
    this.#over = true
    this.release()
  }

  expire(): void {
    const owner = this.#owner
    const lane = this.#lane!
    if (this.#answering) {
      this.#answering = false
      owner.keep(lane, this)
      watchFor(owner.sendWithinMs - owner.answerWithinMs, this)
      return
    }
    this.#over = true
    owner.ended(
      lane,
      this,
      false,
      new DeadlineExceeded(`send() on ${lane.target.channel}`, owner.sendWithinMs),
    )
  }

  #end(tries: number, sent: boolean, error: unknown): void {
    if (this.#over || tries !== this.#tries) {
      if (sent) this.#owner.late(this.#lane!, this)
      return
    }
    this.#over = true
    this.release()
    this.#owner.ended(this.#lane!, this, sent, error)
  }
}

/** One conversation's accepted messages, oldest first; one is tried at a time. */
export interface Lane {
  target: PushTarget
  readonly book: ChannelLanes
  readonly entries: Entry[]
  /** The first entry while a try of it is under way. */
  trying: Entry | undefined
  /** Left by the last run: sent once begin() says the channels are up, before anything newer. */
  held: boolean
  /** Failed tries since the last message went, for the backoff. */
  failures: number
  timer: ReturnType<typeof setTimeout> | undefined
}

/**
 * One channel's conversations that have messages, and how many wait in all of them. Most of the
 * time a channel has one such conversation at most (each message goes at once), so one lane is
 * kept beside the map, and the last one emptied is used again: the common send neither hashes its
 * conversation's id, nor writes a map, nor makes a lane.
 */
export class ChannelLanes {
  /** Messages waiting or being sent, in all of the channel's conversations. */
  waiting = 0
  #solo: Lane | undefined
  #spare: Lane | undefined
  readonly #more = new Map<string, Lane>()

  /** The conversation's lane, made empty if it has none. */
  lane(target: PushTarget): Lane {
    const id = target.conversationId
    const solo = this.#solo
    if (solo !== undefined && solo.target.conversationId === id) return solo
    let lane = this.#more.size === 0 ? undefined : this.#more.get(id)
    if (lane !== undefined) return lane
    lane = this.#spare
    if (lane === undefined) {
      lane = {
        target,
        book: this,
        entries: [],
        trying: undefined,
        held: false,
        failures: 0,
        timer: undefined,
      }
    } else {
      this.#spare = undefined
      lane.target = target
    }
    if (solo === undefined) this.#solo = lane
    else this.#more.set(id, lane)
    return lane
  }

  /** An emptied lane is let go (and kept to be used again: nothing refers to an empty lane). */
  forget(lane: Lane): void {
    if (this.#solo === lane) this.#solo = undefined
    else this.#more.delete(lane.target.conversationId)
    lane.failures = 0
    this.#spare = lane
  }

  *lanes(): Generator<Lane> {
    if (this.#solo !== undefined) yield this.#solo
    yield* this.#more.values()
  }
}
