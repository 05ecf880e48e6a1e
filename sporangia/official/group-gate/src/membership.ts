import type { ChannelIdentity } from '@mycelo/septum'

/** Answers a group's members, or null where the channel cannot tell; throws on a fault. */
export type MemberLookup = (channel: string, groupId: string) => Promise<readonly ChannelIdentity[] | null>

export interface MembershipOptions {
  readonly lookup: MemberLookup
  readonly ttlMs: number
  readonly now?: () => number
}

interface Cached {
  readonly until: number
  readonly externalIds: ReadonlySet<string> | null
}

/** What the groups of one channel say about one sender. */
export type Standing = 'member' | 'stranger' | 'unknown'

/**
 * Member lists per (channel, group), each kept for `ttlMs`. A failed lookup is never cached, so a
 * channel that recovers is asked again at the next message.
 */
export class Membership {
  readonly #lookup: MemberLookup
  readonly #ttlMs: number
  readonly #now: () => number
  readonly #cache = new Map<string, Cached>()
  readonly #asking = new Map<string, Promise<Cached>>()

  constructor(options: MembershipOptions) {
    this.#lookup = options.lookup
    this.#ttlMs = options.ttlMs
    this.#now = options.now ?? Date.now
  }

  /** A member of any group wins; otherwise one group that could not tell makes it unknown. */
  async standing(channel: string, groups: readonly string[], externalId: string): Promise<Standing> {
    let unknown = false
    for (const group of groups) {
      const { externalIds } = await this.#members(channel, group)
      if (externalIds === null) unknown = true
      else if (externalIds.has(externalId)) return 'member'
    }
    return unknown ? 'unknown' : 'stranger'
  }

  clear(): void {
    this.#cache.clear()
  }

  #members(channel: string, group: string): Promise<Cached> {
    const key = `${channel}\u0000${group}`
    const cached = this.#cache.get(key)
    if (cached !== undefined && cached.until > this.#now()) return Promise.resolve(cached)
    // One question per group at a time, however many messages arrive while it is asked.
    const pending = this.#asking.get(key)
    if (pending !== undefined) return pending
    const asking = this.#ask(channel, group).finally(() => this.#asking.delete(key))
    this.#asking.set(key, asking)
    return asking
  }

  async #ask(channel: string, group: string): Promise<Cached> {
    const members = await this.#lookup(channel, group)
    const entry: Cached = {
      until: this.#now() + this.#ttlMs,
      externalIds:
        members === null
          ? null
          : new Set(
              members.filter((member) => member.channel === channel).map((member) => member.externalId),
            ),
    }
    if (members !== null) this.#cache.set(`${channel}\u0000${group}`, entry)
    return entry
  }
}
