import type { SQLQueryBindings } from 'bun:sqlite'
import { and, asc, eq, is, Placeholder, sql } from 'drizzle-orm'
import { heldReadsOf } from './held-reads.ts'
import type { StoreDatabase } from './open.ts'
import { channelIdentities, principalRoles, principals, roleCommands, roles } from './schema/index.ts'

const channel = sql.placeholder('channel')
const externalId = sql.placeholder('externalId')
const principalId = sql.placeholder('principalId')
const name = sql.placeholder('name')

/** The order a principal's identities are read in: as they were added, ties by channel and id. */
export const IDENTITY_ORDER = [
  asc(channelIdentities.addedAt),
  asc(channelIdentities.channel),
  asc(channelIdentities.externalId),
]

/**
 * The reads and writes every message may make, prepared once per open database: building the query
 * and compiling the statement on each call cost more than running it. Each read goes through an
 * index (core/test/store/lookups.test.ts proves which).
 */
function prepareLookups(db: StoreDatabase) {
  return {
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

/** One direct read: its SQL (for its query plan), and its rows as arrays of values. */
export interface DirectRead<Row extends unknown[]> {
  readonly sql: string
  /** The placeholders' names, in the order the SQL binds them. */
  readonly names: readonly string[]
  /** Binds each placeholder by its name (one named twice in the SQL is bound twice). */
  rows(values?: Readonly<Record<string, SQLQueryBindings>>): Row[]
}

/** A principal's own row as `direct` reads it: id, display name, locale, reviewed (0/1), created at (ms). */
export type PrincipalValues = [string, string | null, string | null, number, number]

/**
 * A person found by one of their identities, in one statement: their own row, then what migration
 * 0011's triggers keep on it: the ids of the roles they hold joined by commas (null for none), how
 * many identities they have, and the name their identity carries when it is their only one.
 */
export type PersonValues = [...PrincipalValues, string | null, number, string | null]

/**
 * A person's reads, as bun:sqlite's own statements over the SQL drizzle generates from the schema:
 * drizzle's prepared query maps every row through the schema's decoders, close to a third of a cold
 * read's work. Rows come back as arrays, in the order each select below lists its columns.
 *
 * Counted in instructions with Bun 1.4.5's SQLite (3.54.1): a statement that joins tables or
 * orders rows and takes a bound value is compiled again at every run, three to four times what the
 * read itself costs. So the read every message makes (`person`) neither joins nor orders, and reads
 * one row: the principal's, found through their identity's key, carrying what it would otherwise
 * count and join. The identities read still orders; it runs only for someone with several.
 */
function prepareDirect(db: StoreDatabase) {
  const direct = <Row extends unknown[]>(query: {
    toSQL(): { sql: string; params: unknown[] }
  }): DirectRead<Row> => {
    const { sql, params } = query.toSQL()
    const names = params.map((param) => {
      if (!is(param, Placeholder)) throw new Error(`a direct read binds placeholders only: ${sql}`)
      return param.name
    })
    const statement = db.$client.prepare(sql)
    return {
      sql,
      names,
      rows: (values = {}) => statement.values(...names.map((name) => values[name] ?? null)) as Row[],
    }
  }
  const row = {
    id: principals.id,
    displayName: principals.displayName,
    locale: principals.locale,
    reviewed: principals.reviewed,
    createdAt: principals.createdAt,
  }
  const identityKey = and(
    eq(channelIdentities.channel, channel),
    eq(channelIdentities.externalId, externalId),
  )
  const owner = db.select({ id: channelIdentities.principalId }).from(channelIdentities).where(identityKey)
  return {
    /** (principalId) → the principal's row. */
    principal: direct<PrincipalValues>(db.select(row).from(principals).where(eq(principals.id, principalId))),
    /** (channel, externalId) → the id of the principal the identity belongs to. */
    owner: direct<[string]>(owner),
    /**
     * (channel, externalId) → the person as PersonValues: two key searches in one statement, so one
     * read of the file's state instead of a transaction around several.
     */
    person: direct<PersonValues>(
      db
        .select({
          ...row,
          roleIds: principals.roleIds,
          identityCount: principals.identityCount,
          soleIdentityName: principals.soleIdentityName,
        })
        .from(principals)
        .where(eq(principals.id, owner)),
    ),
    /** (principalId) → channel, external id, display name of each identity, oldest first. */
    identities: direct<[string, string, string | null]>(
      db
        .select({
          channel: channelIdentities.channel,
          externalId: channelIdentities.externalId,
          displayName: channelIdentities.displayName,
        })
        .from(channelIdentities)
        .where(eq(channelIdentities.principalId, principalId))
        .orderBy(...IDENTITY_ORDER),
    ),
    /** (principalId) → the id of each role held: the key of principal_roles alone, no join, no sort. */
    roleIds: direct<[number]>(
      db
        .select({ roleId: principalRoles.roleId })
        .from(principalRoles)
        .where(eq(principalRoles.principalId, principalId)),
    ),
    /** () → id and name of every role. */
    roleNames: direct<[number, string]>(db.select({ id: roles.id, name: roles.name }).from(roles)),
  }
}

export type Lookups = ReturnType<typeof prepareLookups> & {
  readonly direct: ReturnType<typeof prepareDirect>
  /**
   * `direct.person` for the message path, in the held read transaction of the store's read-only
   * connection where it has one (held-reads.ts), else as `direct.person`. Not for reads that must
   * share one snapshot with others: those go through `reading`.
   */
  readonly personNow: (channel: string, externalId: string) => PersonValues[]
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
    const direct = prepareDirect(db)
    lookups = {
      ...prepareLookups(db),
      direct,
      personNow: personNowOf(db, direct.person),
      reading: <T>(read: () => T) => inTransaction(read) as T,
      writing: <T>(write: () => T) => inTransaction.immediate(write) as T,
    }
    prepared.set(db, lookups)
  }
  return lookups
}

function personNowOf(db: StoreDatabase, person: DirectRead<PersonValues>): Lookups['personNow'] {
  const plain = (channel: SQLQueryBindings, externalId: SQLQueryBindings) =>
    person.rows({ channel, externalId })
  if (person.names.join() !== 'channel,externalId') throw new Error(`unexpected placeholders: ${person.sql}`)
  return heldReadsOf(db.$client)?.prepare(person.sql, plain) ?? plain
}
