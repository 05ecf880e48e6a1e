import type {
  Capabilities,
  ChannelCapability,
  ChannelIdentity,
  DeliveryOptions,
  Hypha,
  HyphaManifest,
  Logger,
  OutgoingContent,
  PushTarget,
} from '@mycelo/septum'
import type { Germination } from '../germination/index.ts'
import { markShared } from '../hosts/shared-values.ts'
import type { DurableOutbox } from '../outbox/durable-outbox.ts'
import {
  DEFAULT_DEADLINES,
  type DeadlineOptions,
  type Deadlines,
  logExpiry,
  raceDeadline,
} from '../supervision/deadline.ts'

// Shared: a host keeps its copy of a channel's capabilities instead of receiving it at every message.
const NO_CAPABILITIES: Capabilities = markShared({ has: () => false, list: () => [] })

/** How long a group's member list is trusted before the channel is asked again. */
const MEMBERS_TTL_MS = 30_000

/** The live channels, by name: where replies go and what each can do. */
export class HyphaRegistry {
  readonly #germination: Germination
  /** Keyed by the spore itself: a hypha swapped in anew reads its own manifest's capabilities. */
  readonly #capabilities = new WeakMap<object, Capabilities>()
  readonly #members = new Map<string, { at: number; members: readonly ChannelIdentity[] }>()
  readonly #deadlines: Pick<Deadlines, 'send' | 'groupMembers'>
  /** Per channel name: the deadline every send on it has (it depends on nothing else). */
  readonly #sendDeadlines = new Map<string, DeadlineOptions>()

  readonly #logger: Logger | undefined
  #outbox: DurableOutbox | undefined

  constructor(options: {
    readonly germination: Germination
    readonly deadlines?: Pick<Deadlines, 'send' | 'groupMembers'>
    readonly logger?: Logger
  }) {
    const { germination } = options
    this.#germination = germination
    this.#deadlines = options.deadlines ?? DEFAULT_DEADLINES
    this.#logger = options.logger
  }

  /** The live hypha serving a channel, if any. */
  hypha(channel: string): Hypha | undefined {
    const spore = this.#germination.byName.get(channel)
    if (spore?.kind !== 'hypha' || spore.state !== 'live') return undefined
    return spore.instance as Hypha
  }

  /** What a channel can do; nothing for a channel that is not installed or not live. */
  capabilitiesOf(channel: string): Capabilities {
    const spore = this.#germination.byName.get(channel)
    if (spore?.kind !== 'hypha' || spore.state !== 'live' || !spore.manifest) return NO_CAPABILITIES
    let capabilities = this.#capabilities.get(spore)
    if (capabilities === undefined) {
      const declared = (spore.manifest as HyphaManifest).capabilities
      capabilities = markShared({
        has: (capability: ChannelCapability) => declared.includes(capability),
        list: () => declared,
      })
      this.#capabilities.set(spore, capabilities)
    }
    return capabilities
  }

  /** From now on every send goes through the durable outbox (what every surface's send reaches). */
  sendThrough(outbox: DurableOutbox): void {
    this.#outbox = outbox
  }

  /**
   * Accepts a message for sending: recorded in the outbox and resolved, then sent in its
   * conversation's order. Refused at once for a channel that is not live or whose outbox is full.
   */
  send(target: PushTarget, content: OutgoingContent): Promise<void> {
    if (this.#outbox !== undefined) return this.#outbox.accept(target, content)
    return this.attempt(target, content)
  }

  /** Hands a message to its channel now, with no deadline: the caller (the outbox) bounds the wait. */
  handOver(target: PushTarget, content: OutgoingContent, delivery: DeliveryOptions): Promise<void> {
    const hypha = this.hypha(target.channel)
    if (!hypha) return Promise.reject(new Error(`channel "${target.channel}" is not live; nothing was sent`))
    return hypha.send(target.conversationId, content, delivery)
  }

  /** One try at sending, now, bounded by the channel's send deadline. */
  attempt(target: PushTarget, content: OutgoingContent): Promise<void> {
    const hypha = this.hypha(target.channel)
    if (!hypha) return Promise.reject(new Error(`channel "${target.channel}" is not live; nothing was sent`))
    try {
      return raceDeadline(
        hypha.send(target.conversationId, content),
        this.#sendDeadline(target.channel, this.#deadlines.send),
      )
    } catch (error) {
      // A hypha whose send throws rather than rejects is answered the same way.
      return Promise.reject(error)
    }
  }

  /** The same for every send on a channel, so made once rather than per message (again if its length changed). */
  #sendDeadline(channel: string, ms: number): DeadlineOptions {
    let options = this.#sendDeadlines.get(channel)
    if (options?.ms !== ms) {
      options = { step: `send() on ${channel}`, ms, ...this.#expiry(channel) }
      this.#sendDeadlines.set(channel, options)
    }
    return options
  }

  #expiry(channel: string) {
    return this.#logger ? { onExpired: logExpiry(this.#logger, channel) } : {}
  }

  /** A group's members, briefly cached; null where the channel cannot tell. */
  async groupMembers(
    channel: string,
    groupId: string,
    now = Date.now(),
  ): Promise<readonly ChannelIdentity[] | null> {
    const hypha = this.hypha(channel)
    if (!hypha?.listGroupMembers || !this.capabilitiesOf(channel).has('group_membership')) return null
    const key = `${channel}\u0000${groupId}`
    const cached = this.#members.get(key)
    if (cached && now - cached.at < MEMBERS_TTL_MS) return cached.members
    const members = await raceDeadline(hypha.listGroupMembers(groupId), {
      step: `listGroupMembers() on ${channel}`,
      ms: this.#deadlines.groupMembers,
      ...this.#expiry(channel),
    })
    this.#members.set(key, { at: now, members })
    return members
  }
}
