import type { ChannelIdentity, Logger, Principal, PrincipalInfo } from '@mycelo/septum'
import type { Store } from '../store/index.ts'
import { personByIdentity, personOf } from '../store/people.ts'
import { welcomePrincipal } from '../store/principals.ts'
import { listRoleInfos } from '../store/role-admin.ts'
import { RecentlyUsed } from './recently-used.ts'

/** Principals kept in memory: enough for a busy community's active people, bounded whatever the crowd. */
export const DIRECTORY_CAPACITY = 10_000

/** A principal as the message path needs it: who, which roles, what they allow, which language. */
export interface PrincipalSnapshot {
  readonly id: string
  /** What a handler sees as `ctx.principal`. */
  readonly principal: Principal
  /** Every pattern of every role held, for authorisation. */
  readonly patterns: ReadonlySet<string>
  readonly locale: string | undefined
}

export interface DirectoryOptions {
  readonly store: Store
  /** The role a principal receives at first contact. */
  readonly defaultRole: string
  readonly logger: Logger
  /** How many principals to keep in memory; DIRECTORY_CAPACITY unless given, 0 to read every time. */
  readonly capacity?: number
}

/**
 * Resolves a channel identity to its principal, creating one with the default role at first
 * contact. Answers from a bounded memory of recent senders; any write to people or roles clears it.
 */
export class PrincipalDirectory {
  readonly #options: DirectoryOptions
  /** By channel, then the sender's id on it. */
  readonly #cache: RecentlyUsed<string, string, PrincipalSnapshot>
  #rolePatterns: Map<string, readonly string[]> | undefined
  /**
   * What each list of roles allows, kept beside the list: the store gives everyone who holds the
   * same roles the same frozen list, so a principal read anew builds no set of patterns.
   */
  #allowed = new WeakMap<readonly string[], ReadonlySet<string>>()

  constructor(options: DirectoryOptions) {
    this.#options = options
    this.#cache = new RecentlyUsed(options.capacity ?? DIRECTORY_CAPACITY)
  }

  resolve(sender: ChannelIdentity): PrincipalSnapshot {
    return this.recall(sender) ?? this.meet(sender)
  }

  /** The principal of someone already met, from memory or the store; undefined for a newcomer. */
  recall(sender: ChannelIdentity): PrincipalSnapshot | undefined {
    const cached = this.#cache.get(sender.channel, sender.externalId)
    if (cached) return cached
    const known = personByIdentity(this.#options.store, sender)
    return known ? this.#remember(sender, this.#snapshot(known)) : undefined
  }

  /**
   * First contact, for a sender `recall` just missed: the principal is created with the default
   * role, and `alongside` (the conversation's own write) goes in the same commit.
   */
  meet(sender: ChannelIdentity, alongside?: () => void): PrincipalSnapshot {
    const { store, defaultRole, logger } = this.#options
    const { id, created } = welcomePrincipal(store, { identity: sender, role: defaultRole }, alongside)
    if (!created) {
      // Met by another connection between the read and the write: read them as they are.
      const snapshot = this.load(id)
      return snapshot ? this.#remember(sender, snapshot) : this.#snapshot(newcomer(id, sender, []))
    }
    logger.info('first contact: new principal', { principal: id, channel: sender.channel, role: defaultRole })
    // Everything about a newcomer was just written: no need to read it back.
    return this.#remember(sender, this.#snapshot(newcomer(id, sender, [defaultRole])))
  }

  /** A principal read fresh from the store, or undefined for an unknown id. */
  load(id: string): PrincipalSnapshot | undefined {
    const person = personOf(this.#options.store, id)
    return person ? this.#snapshot(person) : undefined
  }

  #snapshot(person: Person): PrincipalSnapshot {
    const { id, identities, roles, displayName, locale } = person
    let patterns = this.#allowed.get(roles)
    if (patterns === undefined) {
      const allowed = new Set<string>()
      for (const role of roles) for (const pattern of this.#patternsOf(role)) allowed.add(pattern)
      patterns = allowed
      if (Object.isFrozen(roles)) this.#allowed.set(roles, allowed)
    }
    return {
      id,
      principal: { id, identities, roles, ...(displayName ? { displayName } : {}) },
      patterns,
      locale,
    }
  }

  /** Roles are few and change rarely: their patterns are read whole once, and again after a write. */
  #patternsOf(role: string): readonly string[] {
    if (this.#rolePatterns === undefined) {
      this.#rolePatterns = new Map(
        listRoleInfos(this.#options.store).map((info) => [info.name, info.patterns]),
      )
    }
    return this.#rolePatterns.get(role) ?? []
  }

  #remember(sender: ChannelIdentity, snapshot: PrincipalSnapshot): PrincipalSnapshot {
    this.#cache.set(sender.channel, sender.externalId, snapshot)
    return snapshot
  }

  /** How many principals are held in memory now; never more than the capacity. */
  get cached(): number {
    return this.#cache.size
  }

  /** Called after any write to principals, identities or roles. */
  invalidate(): void {
    this.#cache.clear()
    this.#rolePatterns = undefined
    this.#allowed = new WeakMap()
  }
}

/** What a snapshot is drawn from: a principal as the store reads them. */
type Person = Pick<PrincipalInfo, 'id' | 'identities' | 'roles' | 'displayName' | 'locale'>

function newcomer(id: string, sender: ChannelIdentity, roles: string[]): Person {
  return { id, identities: [sender], roles, displayName: sender.displayName }
}
