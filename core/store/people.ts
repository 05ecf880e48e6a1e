import type { ChannelIdentity, PrincipalInfo } from '@mycelo/septum'
import { asc, eq } from 'drizzle-orm'
import { IDENTITY_ORDER, lookupsOf, type PersonValues, type PrincipalValues } from './lookups.ts'
import type { Store } from './open.ts'
import type { IdentityKey } from './principals.ts'
import { channelIdentities, principalRoles, principals, roles } from './schema/index.ts'

/** Every principal as an operator sees them, oldest first. */
export function listPeople(store: Store): PrincipalInfo[] {
  return everyone(store)
}

/** One principal as an operator sees them, or undefined for an unknown id: prepared, indexed reads. */
export function personOf(store: Store, id: string): PrincipalInfo | undefined {
  // One read transaction: a consistent snapshot, and one lock of the file instead of one per read.
  const lookups = lookupsOf(store.db)
  return lookups.reading(() => {
    const row = lookups.direct.principal.rows({ principalId: id })[0]
    if (row === undefined) return undefined
    const held = lookups.direct.roleIds.rows({ principalId: id }).map(([roleId]) => roleName(store, roleId))
    return personFrom(principalRow(row), identitiesOf(store, id), held.sort())
  })
}

/**
 * The principal a channel identity belongs to, as personOf reads them, or undefined if unmet. Every
 * message from someone not in memory reads this: one statement reading one row, nothing written, in
 * the read transaction held while nothing is committed (held-reads.ts) on a file-backed store.
 */
export function personByIdentity(store: Store, identity: IdentityKey): PrincipalInfo | undefined {
  const lookups = lookupsOf(store.db)
  const key = { channel: identity.channel, externalId: identity.externalId }
  const values = lookups.personNow(key.channel, key.externalId)[0]
  if (values === undefined) return undefined
  const [, , , , , roleIds, identities, soleIdentityName] = values
  const held = identities === 1 ? namedRoles(store, roleIds) : undefined
  // Their one identity is the one they were found by, and every role's name is known: that is all.
  if (held !== undefined)
    return personFrom(principalRow(values), [identityOf({ ...key, displayName: soleIdentityName })], held)
  // Several identities, or a role created since the names were read: all of it in one snapshot.
  return lookups.reading(() => {
    const again = lookups.direct.person.rows(key)[0]
    if (again === undefined) return undefined
    const names = idsIn(again[5]).map((roleId) => roleName(store, roleId))
    return personFrom(principalRow(again), identitiesOf(store, again[0]), names.sort())
  })
}

/** A principal's own columns, as personFrom reads them. */
type PrincipalRow = Pick<
  typeof principals.$inferSelect,
  'id' | 'displayName' | 'locale' | 'reviewed' | 'createdAt'
>

function principalRow(values: PrincipalValues | PersonValues): PrincipalRow {
  const [id, displayName, locale, reviewed, createdAt] = values
  return { id, displayName, locale, reviewed: reviewed === 1, createdAt: new Date(createdAt) }
}

/** A principal's identities, oldest first; inside a read transaction. */
function identitiesOf(store: Store, id: string): ChannelIdentity[] {
  return lookupsOf(store.db)
    .direct.identities.rows({ principalId: id })
    .map(([channel, externalId, displayName]) => identityOf({ channel, externalId, displayName }))
}

/** Role ids as the principal's row holds them: `3,17`, or null for none. */
function idsIn(joined: string | null): number[] {
  return joined === null ? [] : joined.split(',').map(Number)
}

/** Held by someone with no role: shared, so frozen like every list namedRoles gives. */
const NO_ROLES: readonly string[] = Object.freeze([])

/**
 * The names of the roles `joined` lists, sorted, or undefined if one was never read. Everyone who
 * holds the same roles gets the same frozen list (a principal's roles are read-only by contract),
 * so a message from someone not in memory builds no list, and the directory can keep what the list
 * allows beside it.
 */
function namedRoles(store: Store, joined: string | null): readonly string[] | undefined {
  if (joined === null) return NO_ROLES
  const known = roleNamesOf.get(store.db)
  if (known === undefined) return undefined
  const shared = known.sets.get(joined)
  if (shared !== undefined) return shared
  const held: string[] = []
  for (const id of idsIn(joined)) {
    const name = known.byId.get(id)
    if (name === undefined) return undefined
    held.push(name)
  }
  // A bound whatever the crowd: sets of roles are few, but nothing stops each person holding their own.
  if (known.sets.size >= ROLE_SETS_KEPT) known.sets.clear()
  const frozen = Object.freeze(held.sort())
  known.sets.set(joined, frozen)
  return frozen
}

/** How many distinct sets of roles namedRoles keeps a shared list for. */
const ROLE_SETS_KEPT = 4_096

interface RoleNames {
  readonly byId: Map<number, string>
  /** namedRoles' shared lists, by the role ids as the principal's row joins them. */
  readonly sets: Map<string, readonly string[]>
}

/**
 * Role names by id, read whole once per connection: a role is never renamed, and its id is never
 * given to another (AUTOINCREMENT), so a name once read stays right; an id not seen yet (a role
 * created since, perhaps by another process) reads them all again, within the same transaction.
 */
const roleNamesOf = new WeakMap<Store['db'], RoleNames>()

function roleName(store: Store, id: number): string {
  let names = roleNamesOf.get(store.db)
  let name = names?.byId.get(id)
  if (name !== undefined) return name
  names = { byId: new Map(lookupsOf(store.db).direct.roleNames.rows()), sets: new Map() }
  roleNamesOf.set(store.db, names)
  name = names.byId.get(id)
  // A foreign key guarantees the role exists in the snapshot this runs in.
  if (name === undefined) throw new Error(`principal_roles names role ${id}, which does not exist`)
  return name
}

export function principalExists(store: Store, id: string): boolean {
  return (
    store.db.select({ id: principals.id }).from(principals).where(eq(principals.id, id)).get() !== undefined
  )
}

/** Answers whether the principal exists; marking twice is harmless. */
export function markReviewed(store: Store, id: string): boolean {
  return updated(store, id, { reviewed: true })
}

/** null clears the chosen name, so the one a channel reported shows again. */
export function setDisplayName(store: Store, id: string, displayName: string | null): boolean {
  return updated(store, id, { displayName })
}

export function setPrincipalLocale(store: Store, id: string, locale: string | null): boolean {
  return updated(store, id, { locale })
}

function updated(store: Store, id: string, set: Partial<typeof principals.$inferInsert>): boolean {
  return (
    store.db.update(principals).set(set).where(eq(principals.id, id)).returning({ id: principals.id }).all()
      .length > 0
  )
}

function everyone(store: Store): PrincipalInfo[] {
  const { db } = store
  const rows = db.select().from(principals).orderBy(asc(principals.createdAt), asc(principals.id)).all()
  if (rows.length === 0) return []
  const identities = new Map<string, ChannelIdentity[]>()
  const identityRows = db
    .select()
    .from(channelIdentities)
    .orderBy(...IDENTITY_ORDER)
    .all()
  for (const row of identityRows) {
    identities.set(row.principalId, [...(identities.get(row.principalId) ?? []), identityOf(row)])
  }
  const held = new Map<string, string[]>()
  const roleRows = db
    .select({ principalId: principalRoles.principalId, name: roles.name })
    .from(principalRoles)
    .innerJoin(roles, eq(principalRoles.roleId, roles.id))
    .orderBy(asc(roles.name))
    .all()
  for (const row of roleRows) held.set(row.principalId, [...(held.get(row.principalId) ?? []), row.name])
  return rows.map((row) => personFrom(row, identities.get(row.id) ?? [], held.get(row.id) ?? []))
}

function identityOf(
  row: Pick<typeof channelIdentities.$inferSelect, 'channel' | 'externalId' | 'displayName'>,
): ChannelIdentity {
  return {
    channel: row.channel,
    externalId: row.externalId,
    ...(row.displayName ? { displayName: row.displayName } : {}),
  }
}

function personFrom(row: PrincipalRow, known: ChannelIdentity[], held: readonly string[]): PrincipalInfo {
  // The name an operator chose wins over whatever a channel reported.
  const displayName = row.displayName ?? known.find((identity) => identity.displayName)?.displayName
  return {
    id: row.id,
    ...(displayName ? { displayName } : {}),
    identities: known,
    roles: held,
    reviewed: row.reviewed,
    ...(row.locale ? { locale: row.locale } : {}),
    createdAt: row.createdAt,
  }
}
