import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { ensureRole, grantRole, openStore } from '../../store/index.ts'
import { lookupsOf } from '../../store/lookups.ts'
import { personOf } from '../../store/people.ts'
import { meetPrincipal, principalIdOf, welcomePrincipal } from '../../store/principals.ts'
import { channelIdentities, principalRoles, principals } from '../../store/schema/index.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-lookups')
afterAll(() => scratch.remove())

/** SQLite's own account of how it would run a statement, one line per step. */
function planOf(
  store: ReturnType<typeof openStore>,
  query: { getQuery(): { sql: string } } | { sql: string },
): string[] {
  const sql = 'sql' in query ? query.sql : query.getQuery().sql
  return store.db.$client
    .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`)
    .all()
    .map((row) => row.detail)
}

describe('the message path’s lookups', () => {
  it('reads every table it touches through an index, never a scan', () => {
    const store = openStore({ path: join(scratch.path, 'plans.db') })
    const lookups = lookupsOf(store.db)
    const { direct } = lookups
    const reads = {
      principal: direct.principal,
      owner: direct.owner,
      person: direct.person,
      identities: direct.identities,
      roleIds: direct.roleIds,
      patterns: lookups.patterns,
      roleId: lookups.roleId,
    }
    for (const [name, query] of Object.entries(reads)) {
      const plan = planOf(store, query)
      expect({ name, scans: plan.filter((step) => step.startsWith('SCAN')) }).toEqual({ name, scans: [] })
      expect({ name, searches: plan.some((step) => step.startsWith('SEARCH')) }).toEqual({
        name,
        searches: true,
      })
    }
    // Named, so a dropped index shows here rather than as a slow bot.
    expect(planOf(store, direct.identities).join('\n')).toContain('channel_identities_principal_id')
    expect(planOf(store, direct.owner).join('\n')).toContain('PRIMARY KEY (channel=? AND external_id=?)')
    store.close()
  })

  it('reads a principal the same through the prepared path, with identities, roles and the chosen name', () => {
    const store = openStore({ path: join(scratch.path, 'person.db') })
    const { id } = meetPrincipal(store, {
      identity: { channel: 'chat', externalId: 'ada', displayName: 'Ada' },
      role: 'newcomer',
    })
    grantRole(store, id, ensureRole(store, 'crowd', { patterns: ['bench.*'] }))
    const person = personOf(store, id)!
    expect(person.identities).toEqual([{ channel: 'chat', externalId: 'ada', displayName: 'Ada' }])
    expect(person.roles).toEqual(['crowd', 'newcomer'])
    expect(person.displayName).toBe('Ada')
    expect(personOf(store, 'nobody')).toBeUndefined()
    store.close()
  })
})

describe('first contact', () => {
  it('writes the principal, their identity and their role in one transaction: a failed grant leaves nothing', () => {
    const store = openStore({ path: join(scratch.path, 'atomic.db') })
    store.db.$client.run(
      "CREATE TRIGGER refuse_grants BEFORE INSERT ON principal_roles BEGIN SELECT RAISE(ABORT, 'no grants'); END",
    )
    expect(() =>
      meetPrincipal(store, { identity: { channel: 'chat', externalId: 'ada' }, role: 'newcomer' }),
    ).toThrow('no grants')
    expect(store.db.select().from(principals).all()).toEqual([])
    expect(store.db.select().from(channelIdentities).all()).toEqual([])
    store.db.$client.run('DROP TRIGGER refuse_grants')

    const met = meetPrincipal(store, { identity: { channel: 'chat', externalId: 'ada' }, role: 'newcomer' })
    expect(met.created).toBe(true)
    expect(store.db.select().from(principalRoles).all()).toHaveLength(1)
    expect(
      meetPrincipal(store, { identity: { channel: 'chat', externalId: 'ada' }, role: 'newcomer' }),
    ).toEqual({
      id: met.id,
      created: false,
    })
    store.close()
  })

  it('writes what goes alongside (the conversation) in the same commit: a failure there takes the newcomer back', () => {
    const store = openStore({ path: join(scratch.path, 'alongside.db') })
    const identity = { channel: 'chat', externalId: 'cy' }
    expect(() =>
      welcomePrincipal(store, { identity, role: 'newcomer' }, () => {
        throw new Error('conversation not written')
      }),
    ).toThrow('conversation not written')
    expect(principalIdOf(store, identity)).toBeUndefined()
    let wrote = false
    const met = welcomePrincipal(store, { identity, role: 'newcomer' }, () => {
      wrote = store.db.$client.inTransaction
    })
    expect(wrote).toBe(true)
    expect(met.created).toBe(true)
    expect(principalIdOf(store, identity)).toBe(met.id)
    store.close()
  })

  it('is on disk once answered: another connection reads the newcomer', () => {
    const path = join(scratch.path, 'durable.db')
    const store = openStore({ path })
    const { id } = meetPrincipal(store, { identity: { channel: 'chat', externalId: 'bo' }, role: 'newcomer' })
    const other = openStore({ path })
    expect(principalIdOf(other, { channel: 'chat', externalId: 'bo' })).toBe(id)
    expect(personOf(other, id)?.roles).toEqual(['newcomer'])
    other.close()
    store.close()
  })
})
