import type { ChannelIdentity, Logger, Principal } from '@mycelo/septum'
import { eq } from 'drizzle-orm'
import { ensurePrincipal, ensureRole, grantRole, type Store } from '../store/index.ts'
import { channelIdentities, principalRoles, principals, roleCommands, roles } from '../store/schema/index.ts'

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
      if (sender.displayName) this.#rememberName(id, sender)
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
    const { db } = this.#options.store
    const row = db.select().from(principals).where(eq(principals.id, id)).get()
    if (!row) return undefined
    const identities = db
      .select({
        channel: channelIdentities.channel,
        externalId: channelIdentities.externalId,
        displayName: channelIdentities.displayName,
      })
      .from(channelIdentities)
      .where(eq(channelIdentities.principalId, id))
      .all()
      .map((identity) => withoutNulls(identity))
    const held = db
      .select({ name: roles.name, pattern: roleCommands.pattern })
      .from(principalRoles)
      .innerJoin(roles, eq(principalRoles.roleId, roles.id))
      .leftJoin(roleCommands, eq(roleCommands.roleId, roles.id))
      .where(eq(principalRoles.principalId, id))
      .all()
    const roleNames = [...new Set(held.map((r) => r.name))].sort()
    const patterns = new Set(held.flatMap((r) => (r.pattern ? [r.pattern] : [])))
    const displayName = row.displayName ?? identities.find((i) => i.displayName)?.displayName
    return {
      id,
      principal: { id, identities, roles: roleNames, ...(displayName ? { displayName } : {}) },
      patterns,
      locale: row.locale ?? undefined,
    }
  }

  /** Called after any write to principals, identities or roles. */
  invalidate(): void {
    this.#cache.clear()
  }

  #rememberName(principalId: string, sender: ChannelIdentity): void {
    this.#options.store.db
      .update(channelIdentities)
      .set({ displayName: sender.displayName })
      .where(eq(channelIdentities.principalId, principalId))
      .run()
  }
}

function withoutNulls(identity: {
  channel: string
  externalId: string
  displayName: string | null
}): ChannelIdentity {
  const { displayName, ...rest } = identity
  return displayName ? { ...rest, displayName } : rest
}
