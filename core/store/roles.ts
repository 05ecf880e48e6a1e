import { and, eq } from 'drizzle-orm'
import type { Store } from './open.ts'
import { principalRoles, roleCommands, roles } from './schema/index.ts'

/** The builtin role that may run every command; it always exists and cannot be rewritten. */
export const OWNER_ROLE = 'owner'

/**
 * What a newcomer's role grants when the core has to create it: enough to ask for help and to
 * choose the language the bot answers them in.
 */
export const DEFAULT_ROLE_PATTERNS = ['help.*', 'admin.lang'] as const

export interface RoleSeed {
  readonly builtin?: boolean
  /** Given to the role only when it is created; an existing role keeps the patterns it has. */
  readonly patterns: readonly string[]
}

/** The role's id, creating it with its seed patterns when it does not exist yet. */
export function ensureRole(store: Store, name: string, seed: RoleSeed): number {
  const { db } = store
  return db.transaction((tx) => {
    const existing = tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name)).get()
    if (existing) return existing.id
    const created = tx
      .insert(roles)
      .values({ name, builtin: seed.builtin ?? false })
      .returning({ id: roles.id })
      .get()
    if (seed.patterns.length > 0) {
      tx.insert(roleCommands)
        .values(seed.patterns.map((pattern) => ({ roleId: created.id, pattern })))
        .run()
    }
    return created.id
  })
}

/** Makes the owner role exist, builtin, granting `*`, whatever an earlier run left behind. */
export function ensureOwnerRole(store: Store): number {
  const { db } = store
  const id = ensureRole(store, OWNER_ROLE, { builtin: true, patterns: ['*'] })
  db.update(roles).set({ builtin: true }).where(eq(roles.id, id)).run()
  db.insert(roleCommands).values({ roleId: id, pattern: '*' }).onConflictDoNothing().run()
  return id
}

/** Binds a principal to a role; binding twice is harmless. */
export function grantRole(store: Store, principalId: string, roleId: number): void {
  store.db.insert(principalRoles).values({ principalId, roleId }).onConflictDoNothing().run()
}

/** The names of the roles a principal holds, sorted. */
export function roleNamesOf(store: Store, principalId: string): string[] {
  return store.db
    .select({ name: roles.name })
    .from(principalRoles)
    .innerJoin(roles, eq(principalRoles.roleId, roles.id))
    .where(eq(principalRoles.principalId, principalId))
    .orderBy(roles.name)
    .all()
    .map((row) => row.name)
}

/** A role's command patterns, sorted; empty for an unknown role. */
export function patternsOf(store: Store, roleName: string): string[] {
  return store.db
    .select({ pattern: roleCommands.pattern })
    .from(roleCommands)
    .innerJoin(roles, and(eq(roleCommands.roleId, roles.id), eq(roles.name, roleName)))
    .orderBy(roleCommands.pattern)
    .all()
    .map((row) => row.pattern)
}
