import type { Store } from './open.ts'
import { ensurePrincipal } from './principals.ts'
import { DEFAULT_ROLE_PATTERNS, ensureOwnerRole, ensureRole, grantRole } from './roles.ts'

export interface OwnerIdentity {
  readonly channel: string
  readonly userId: string
}

/**
 * Runs at every start: the owner role exists and the configured owner holds it, so whoever the
 * config names can always administer the bot, even after a role was revoked by mistake.
 */
export function ensureOwner(store: Store, owner: OwnerIdentity): { principalId: string } {
  const roleId = ensureOwnerRole(store)
  const { id } = ensurePrincipal(store, { channel: owner.channel, externalId: owner.userId })
  grantRole(store, id, roleId)
  return { principalId: id }
}

/** The role newcomers receive exists; created with `help.*` so a newcomer can ask for help. */
export function ensureDefaultRole(store: Store, name: string): void {
  ensureRole(store, name, { patterns: DEFAULT_ROLE_PATTERNS })
}
