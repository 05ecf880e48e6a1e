import { and, asc, eq, sql } from 'drizzle-orm'
import type { StoreDatabase } from './open.ts'
import { channelIdentities, principalRoles, principals, roleCommands, roles } from './schema/index.ts'

const channel = sql.placeholder('channel')
const externalId = sql.placeholder('externalId')
const principalId = sql.placeholder('principalId')
const name = sql.placeholder('name')

/**
 * The reads and writes every message may make, prepared once per open database: building the query
 * and compiling the statement on each call cost more than running it. Each read goes through an
 * index (core/test/store/lookups.test.ts proves which).
 */
function prepareLookups(db: StoreDatabase) {
  return {
    owner: db
      .select({ id: channelIdentities.principalId })
      .from(channelIdentities)
      .where(and(eq(channelIdentities.channel, channel), eq(channelIdentities.externalId, externalId)))
      .prepare(),
    principal: db.select().from(principals).where(eq(principals.id, principalId)).prepare(),
    principalByIdentity: db
      .select({ principal: principals })
      .from(channelIdentities)
      .innerJoin(principals, eq(principals.id, channelIdentities.principalId))
      .where(and(eq(channelIdentities.channel, channel), eq(channelIdentities.externalId, externalId)))
      .prepare(),
    identities: db
      .select()
      .from(channelIdentities)
      .where(eq(channelIdentities.principalId, principalId))
      .orderBy(
        asc(channelIdentities.addedAt),
        asc(channelIdentities.channel),
        asc(channelIdentities.externalId),
      )
      .prepare(),
    roleNames: db
      .select({ name: roles.name })
      .from(principalRoles)
      .innerJoin(roles, eq(principalRoles.roleId, roles.id))
      .where(eq(principalRoles.principalId, principalId))
      .orderBy(asc(roles.name))
      .prepare(),
    patterns: db
      .selectDistinct({ pattern: roleCommands.pattern })
      .from(principalRoles)
      .innerJoin(roleCommands, eq(roleCommands.roleId, principalRoles.roleId))
      .where(eq(principalRoles.principalId, principalId))
      .prepare(),
    roleId: db.select({ id: roles.id }).from(roles).where(eq(roles.name, name)).prepare(),
    addPrincipal: db.insert(principals).values({ id: principalId }).prepare(),
    addIdentity: db
      .insert(channelIdentities)
      .values({ principalId, channel, externalId, displayName: sql.placeholder('displayName') })
      .prepare(),
    addRole: db.insert(roles).values({ name }).returning({ id: roles.id }).prepare(),
    grant: db
      .insert(principalRoles)
      .values({ principalId, roleId: sql.placeholder('roleId') })
      .onConflictDoNothing()
      .prepare(),
  }
}

export type Lookups = ReturnType<typeof prepareLookups> & {
  /** Runs `read` in one read transaction: bun:sqlite's own, since drizzle's builds a new object per call. */
  readonly reading: <T>(read: () => T) => T
  /** Runs `write` in one transaction that takes the write lock at once, so it never has to upgrade. */
  readonly writing: <T>(write: () => T) => T
}

/** Keyed by the connection, so a closed store's statements go with it. */
const prepared = new WeakMap<StoreDatabase, Lookups>()

/** The prepared lookups of one open database, compiled on first use. */
export function lookupsOf(db: StoreDatabase): Lookups {
  let lookups = prepared.get(db)
  if (lookups === undefined) {
    const inTransaction = db.$client.transaction((read: () => unknown) => read())
    lookups = {
      ...prepareLookups(db),
      reading: <T>(read: () => T) => inTransaction(read) as T,
      writing: <T>(write: () => T) => inTransaction.immediate(write) as T,
    }
    prepared.set(db, lookups)
  }
  return lookups
}
