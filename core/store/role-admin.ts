import type { RoleInfo } from '@mycelo/septum'
import { and, asc, eq } from 'drizzle-orm'
import { lookupsOf } from './lookups.ts'
import type { Store } from './open.ts'
import { principalRoles, roleCommands, roles } from './schema/index.ts'

export interface RoleRecord {
  readonly id: number
  readonly name: string
  readonly builtin: boolean
}

export function roleNamed(store: Store, name: string): RoleRecord | undefined {
  return store.db.select().from(roles).where(eq(roles.name, name)).get()
}

/** Every role with its patterns, sorted by name (patterns sorted too). */
export function listRoleInfos(store: Store): RoleInfo[] {
  const { db } = store
  const patterns = new Map<number, string[]>()
  for (const row of db.select().from(roleCommands).orderBy(asc(roleCommands.pattern)).all()) {
    patterns.set(row.roleId, [...(patterns.get(row.roleId) ?? []), row.pattern])
  }
  return db
    .select()
    .from(roles)
    .orderBy(asc(roles.name))
    .all()
    .map((role) => ({ name: role.name, patterns: patterns.get(role.id) ?? [], builtin: role.builtin }))
}

/** Creates a role with its patterns in one transaction; the caller has checked the name is free. */
export function createRole(store: Store, name: string, patterns: readonly string[]): void {
  store.db.transaction((tx) => {
    const { id } = tx.insert(roles).values({ name }).returning({ id: roles.id }).get()
    if (patterns.length > 0) {
      tx.insert(roleCommands)
        .values(patterns.map((pattern) => ({ roleId: id, pattern })))
        .run()
    }
  })
}

/** Replaces every pattern of a role at once, so no message sees it half rewritten. */
export function replaceRolePatterns(store: Store, roleId: number, patterns: readonly string[]): void {
  store.db.transaction((tx) => {
    tx.delete(roleCommands).where(eq(roleCommands.roleId, roleId)).run()
    if (patterns.length > 0) {
      tx.insert(roleCommands)
        .values(patterns.map((pattern) => ({ roleId, pattern })))
        .run()
    }
  })
}

/** Deletes a role; its patterns and every grant of it go with it. */
export function deleteRole(store: Store, roleId: number): void {
  store.db.delete(roles).where(eq(roles.id, roleId)).run()
}

/** Answers whether the principal held the role. */
export function revokeRole(store: Store, principalId: string, roleId: number): boolean {
  return (
    store.db
      .delete(principalRoles)
      .where(and(eq(principalRoles.principalId, principalId), eq(principalRoles.roleId, roleId)))
      .returning({ roleId: principalRoles.roleId })
      .all().length > 0
  )
}

/** Every command pattern of every role a principal holds. */
export function patternsHeldBy(store: Store, principalId: string): string[] {
  return lookupsOf(store.db)
    .patterns.all({ principalId })
    .map((row) => row.pattern)
}

/** The principals holding a role, so the last owner is never left without a successor. */
export function holdersOf(store: Store, roleId: number): string[] {
  return store.db
    .select({ principalId: principalRoles.principalId })
    .from(principalRoles)
    .where(eq(principalRoles.roleId, roleId))
    .all()
    .map((row) => row.principalId)
}
