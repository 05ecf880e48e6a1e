import type { ChannelIdentity, Logger, Principal } from '@mycelo/septum'
import { and, eq } from 'drizzle-orm'
import { ensurePrincipal, ensureRole, grantRole, type Store } from '../store/index.ts'
import { personOf } from '../store/people.ts'
import { patternsHeldBy } from '../store/role-admin.ts'
import { channelIdentities } from '../store/schema/index.ts'

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
}

/**
 * Resolves a channel identity to its principal, creating one with the default role at first
 * contact. Answers from memory after the first message; any write to people or roles clears it.
 */
export class PrincipalDirectory {
  readonly #options: DirectoryOptions
  readonly #cache = new Map<string, PrincipalSnapshot>()

  constructor(options: DirectoryOptions) {
    this.#options = options
  }

  resolve(sender: ChannelIdentity): PrincipalSnapshot {
    const cacheKey = `${sender.channel}\u0000${sender.externalId}`
    const cached = this.#cache.get(cacheKey)
    if (cached) return cached
    const { store, defaultRole, logger } = this.#options
    const { id, created } = ensurePrincipal(store, sender)
    if (created) {
      grantRole(store, id, ensureRole(store, defaultRole, { patterns: [] }))
      if (sender.displayName) this.#rememberName(sender)
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

  /** Called after any write to principals, identities or roles. */
  invalidate(): void {
    this.#cache.clear()
  }

  #rememberName(sender: ChannelIdentity): void {
    this.#options.store.db
      .update(channelIdentities)
      .set({ displayName: sender.displayName })
      .where(
        and(
          eq(channelIdentities.channel, sender.channel),
          eq(channelIdentities.externalId, sender.externalId),
        ),
      )
      .run()
  }
}
