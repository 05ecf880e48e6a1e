// Migration 0011 keeps, on each principal's row, what a message from someone not in memory needs:
// their role ids, how many identities they have, and their sole identity's name. Whatever writes the
// tables those sum up (the store's functions, another connection, a cascade, plain SQL), a read by
// identity must equal the full read, which joins the tables themselves.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { ensureRole, grantRole, openStore, type Store } from '../../store/index.ts'
import {
  listPeople,
  markReviewed,
  personByIdentity,
  setDisplayName,
  setPrincipalLocale,
} from '../../store/people.ts'
import { attachIdentity, meetPrincipal } from '../../store/principals.ts'
import { createRole, deleteRole, revokeRole, roleNamed } from '../../store/role-admin.ts'
import { databaseBefore } from './migrated-before.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-principal-summary')
afterAll(() => scratch.remove())

interface Summary {
  id: string
  roleIds: string | null
  identities: number
  soleName: string | null
}

/** The three columns as the triggers left them, and as the tables themselves say they should be. */
function summaries(store: Store): { kept: Summary[]; counted: Summary[] } {
  const sqlite = store.db.$client
  const kept = sqlite
    .query<Summary, []>(
      `SELECT id, role_ids AS roleIds, identity_count AS identities, sole_identity_name AS soleName
       FROM principals ORDER BY id`,
    )
    .all()
  const counted = sqlite
    .query<{ id: string; roleIds: string | null; identities: number; soleName: string | null }, []>(
      `SELECT p.id,
         (SELECT group_concat(role_id) FROM (SELECT role_id FROM principal_roles WHERE principal_id = p.id ORDER BY role_id)) AS roleIds,
         (SELECT count(*) FROM channel_identities WHERE principal_id = p.id) AS identities,
         (SELECT CASE WHEN count(*) = 1 THEN max(display_name) END FROM channel_identities WHERE principal_id = p.id) AS soleName
       FROM principals p ORDER BY p.id`,
    )
    .all()
  // Role ids in ascending order whatever order group_concat met them in.
  const sorted = (rows: Summary[]) =>
    rows.map((row) => ({
      ...row,
      roleIds:
        row.roleIds === null
          ? null
          : row.roleIds
              .split(',')
              .map(Number)
              .sort((a, b) => a - b)
              .join(','),
    }))
  return { kept: sorted(kept), counted: sorted(counted) }
}

/** Every identity read by the one-row lookup equals its person as the full read sees them. */
function expectTrue(store: Store, step: string): void {
  const { kept, counted } = summaries(store)
  expect({ step, kept }).toEqual({ step, kept: counted })
  const everyone = listPeople(store)
  for (const person of everyone) {
    for (const identity of person.identities) {
      const read = personByIdentity(store, identity)
      expect({ step, identity, read }).toEqual({ step, identity, read: person })
    }
  }
  const identities = store.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM channel_identities')
  expect({ step, identities: everyone.flatMap((person) => person.identities).length }).toEqual({
    step,
    identities: identities.get()!.n,
  })
}

describe('what a principal’s row keeps of their roles and identities', () => {
  it('stays true through every write: first contact, roles, identities, names, deletions', () => {
    const store = openStore({ path: join(scratch.path, 'writes.db') })
    const sqlite = store.db.$client
    const ada = meetPrincipal(store, {
      identity: { channel: 'chat', externalId: 'ada', displayName: 'Ada' },
      role: 'newcomer',
    }).id
    const bob = meetPrincipal(store, {
      identity: { channel: 'chat', externalId: 'bob' },
      role: 'newcomer',
    }).id
    expectTrue(store, 'first contact')

    const crowd = ensureRole(store, 'crowd', { patterns: ['bench.*'] })
    grantRole(store, ada, crowd)
    grantRole(store, ada, crowd)
    createRole(store, 'fans', ['films.*'])
    const fans = roleNamed(store, 'fans')!.id
    grantRole(store, ada, fans)
    grantRole(store, bob, fans)
    expectTrue(store, 'roles granted')
    expect(personByIdentity(store, { channel: 'chat', externalId: 'ada' })?.roles).toEqual([
      'crowd',
      'fans',
      'newcomer',
    ])

    revokeRole(store, ada, crowd)
    expectTrue(store, 'role revoked')
    revokeRole(store, bob, roleNamed(store, 'newcomer')!.id)
    expectTrue(store, 'last role but one revoked')
    deleteRole(store, fans)
    expectTrue(store, 'role deleted: its grants go by cascade')
    expect(personByIdentity(store, { channel: 'chat', externalId: 'bob' })?.roles).toEqual([])

    setDisplayName(store, ada, 'Adeline')
    setPrincipalLocale(store, ada, 'fr')
    markReviewed(store, ada)
    expectTrue(store, 'renamed, language chosen, reviewed')
    setDisplayName(store, ada, null)
    expectTrue(store, 'chosen name cleared')

    attachIdentity(store, {
      principalId: ada,
      identity: { channel: 'web', externalId: 'ada@home', displayName: 'Ada at home' },
    })
    expectTrue(store, 'second identity attached')
    sqlite.run("UPDATE channel_identities SET display_name = 'Ada L.' WHERE external_id = 'ada'")
    expectTrue(store, 'an identity renamed by its channel')
    sqlite.run("DELETE FROM channel_identities WHERE channel = 'web' AND external_id = 'ada@home'")
    expectTrue(store, 'identity removed: one left')
    expect(personByIdentity(store, { channel: 'chat', externalId: 'ada' })?.identities).toEqual([
      { channel: 'chat', externalId: 'ada', displayName: 'Ada L.' },
    ])

    // Two people made one: bob's identity and his role (one ada lacks) move to ada, then bob goes.
    grantRole(store, bob, crowd)
    expectTrue(store, 'granted before the merge')
    sqlite.run('UPDATE channel_identities SET principal_id = ? WHERE principal_id = ?', [ada, bob])
    sqlite.run('UPDATE principal_roles SET principal_id = ? WHERE principal_id = ?', [ada, bob])
    sqlite.run('DELETE FROM principals WHERE id = ?', [bob])
    expectTrue(store, 'two people merged')
    expect(personByIdentity(store, { channel: 'chat', externalId: 'bob' })).toMatchObject({
      id: ada,
      roles: ['crowd', 'newcomer'],
    })

    sqlite.run('DELETE FROM principals WHERE id = ?', [ada])
    expectTrue(store, 'person deleted: identities and grants go by cascade')
    expect(personByIdentity(store, { channel: 'chat', externalId: 'ada' })).toBeUndefined()
    store.close()
  })

  it('is kept by writes from another connection, read at the very next lookup', () => {
    const path = join(scratch.path, 'other.db')
    const store = openStore({ path })
    const ada = meetPrincipal(store, {
      identity: { channel: 'chat', externalId: 'ada' },
      role: 'newcomer',
    }).id
    expectTrue(store, 'met')
    const other = new Database(path)
    other.run('PRAGMA foreign_keys = ON')
    other.run("INSERT INTO roles (name) VALUES ('late')")
    other.run(
      "INSERT INTO principal_roles (principal_id, role_id) SELECT ?, id FROM roles WHERE name = 'late'",
      [ada],
    )
    expect(personByIdentity(store, { channel: 'chat', externalId: 'ada' })?.roles).toEqual([
      'late',
      'newcomer',
    ])
    other.run(
      "INSERT INTO channel_identities (principal_id, channel, external_id, display_name) VALUES (?, 'web', 'a', 'A')",
      [ada],
    )
    expectTrue(store, 'identity added elsewhere')
    other.run("DELETE FROM roles WHERE name = 'late'")
    expectTrue(store, 'role deleted elsewhere')
    other.close()
    store.close()
  })
})

describe('migration 0011', () => {
  it('fills the row of everyone already there, whatever they hold', () => {
    const before = databaseBefore(scratch.path, 'upgrade', '0011')
    before.run('PRAGMA foreign_keys = ON')
    before.run("INSERT INTO roles (name) VALUES ('crowd'), ('fans')")
    const people = [
      ['p-ann', ['ann'], ['crowd', 'fans']],
      ['p-bob', ['bob', 'bob-web'], ['crowd']],
      ['p-cid', ['cid'], []],
      ['p-dee', [], ['fans']],
    ] as const
    for (const [id, identities, held] of people) {
      before.run('INSERT INTO principals (id) VALUES (?)', [id])
      for (const external of identities) {
        before.run(
          "INSERT INTO channel_identities (principal_id, channel, external_id, display_name) VALUES (?, 'chat', ?, ?)",
          [id, external, external.toUpperCase()],
        )
      }
      for (const role of held) {
        before.run(
          'INSERT INTO principal_roles (principal_id, role_id) SELECT ?, id FROM roles WHERE name = ?',
          [id, role],
        )
      }
    }
    before.close()
    const store = openStore({ path: join(scratch.path, 'upgrade.db') })
    expectTrue(store, 'migrated')
    expect(
      summaries(store).kept.map(({ id, identities, soleName }) => ({ id, identities, soleName })),
    ).toEqual([
      { id: 'p-ann', identities: 1, soleName: 'ANN' },
      { id: 'p-bob', identities: 2, soleName: null },
      { id: 'p-cid', identities: 1, soleName: 'CID' },
      { id: 'p-dee', identities: 0, soleName: null },
    ])
    expect(personByIdentity(store, { channel: 'chat', externalId: 'ann' })?.roles).toEqual(['crowd', 'fans'])
    // Writes after the migration are kept by its triggers.
    grantRole(store, 'p-cid', roleNamed(store, 'crowd')!.id)
    expectTrue(store, 'granted after the migration')
    store.close()
  })
})
