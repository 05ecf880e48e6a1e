import type { ChannelIdentity, Logger, Principal } from '@mycelo/septum'
import type { Store } from '../store/index.ts'
import { personOf } from '../store/people.ts'
import { meetPrincipal } from '../store/principals.ts'
import { patternsHeldBy } from '../store/role-admin.ts'
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
  readonly #cache: RecentlyUsed<string, PrincipalSnapshot>

  constructor(options: DirectoryOptions) {
    this.#options = options
    this.#cache = new RecentlyUsed(options.capacity ?? DIRECTORY_CAPACITY)
  }

  resolve(sender: ChannelIdentity): PrincipalSnapshot {
    const cacheKey = `${sender.channel}\u0000${sender.externalId}`
    const cached = this.#cache.get(cacheKey)
    if (cached) return cached
    const { store, defaultRole, logger } = this.#options
    const { id, created } = meetPrincipal(store, { identity: sender, role: defaultRole })
    if (created) {
      logger.info('first contact: new principal', {
        principal: id,
        channel: sender.channel,
        role: defaultRole,
      })
    }
    const snapshot = this.load(id)
    if (snapshot) this.#cache.set(cacheKey, snapshot)
    return (
      snapshot ?? {
        id,
        principal: { id, identities: [sender], roles: [] },
        patterns: new Set(),
        locale: undefined,
      }
    )
  }

  /** A principal read fresh from the store, or undefined for an unknown id. */
  load(id: string): PrincipalSnapshot | undefined {
    const { store } = this.#options
    const person = personOf(store, id)
    if (!person) return undefined
    const { identities, roles, displayName, locale } = person
    return {
      id,
      principal: { id, identities, roles, ...(displayName ? { displayName } : {}) },
      patterns: new Set(patternsHeldBy(store, id)),
      locale,
    }
  }

  /** How many principals are held in memory now; never more than the capacity. */
  get cached(): number {
    return this.#cache.size
  }

  /** Called after any write to principals, identities or roles. */
  invalidate(): void {
    this.#cache.clear()
  }
}
