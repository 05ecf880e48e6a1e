// Migration 0009 rebuilds the tables first contact writes. A store written by the previous schema
// must keep every row and every reference; a broken reference must leave the file as it was.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { openStore, StoreError } from '../../store/index.ts'
import { personOf } from '../../store/people.ts'
import { attachIdentity, meetPrincipal } from '../../store/principals.ts'
import { databaseBefore } from './migrated-before.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-first-contact')
afterAll(() => scratch.remove())

const REBUILT = ['principals', 'channel_identities', 'principal_roles', 'conversations']

/** Two people with identities, roles, a web session and an agent key, and one conversation. */
function seed(sqlite: Database): void {
  sqlite.run('PRAGMA foreign_keys = ON')
  sqlite.run("INSERT INTO roles (name, builtin) VALUES ('crowd', 0)")
  for (const [id, external] of [
    ['p-ann', 'ann'],
    ['p-bob', 'bob'],
  ] as const) {
    sqlite.run("INSERT INTO principals (id, display_name, locale) VALUES (?, ?, 'fr')", [id, external])
    sqlite.run("INSERT INTO channel_identities (principal_id, channel, external_id) VALUES (?, 'chat', ?)", [
      id,
      external,
    ])
    sqlite.run(
      "INSERT INTO principal_roles (principal_id, role_id) SELECT ?, id FROM roles WHERE name = 'crowd'",
      [id],
    )
  }
  sqlite.run(
    "INSERT INTO channel_identities (principal_id, channel, external_id) VALUES ('p-ann', 'web', 'ann-web')",
  )
  sqlite.run(
    "INSERT INTO conversations (channel, conversation_id, kind, label, locale, first_seen, last_seen) VALUES ('chat', 'room', 'group', 'Room', 'de', 1, 2)",
  )
}

const tableSql = (sqlite: Database, name: string) =>
  (sqlite.query('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql

describe('migration 0009: the tables first contact writes', () => {
  it('keeps every row and reference, and deleting a person still takes their rows with them', () => {
    const before = databaseBefore(scratch.path, 'upgrade', '0009')
    seed(before)
    before.close()
    const store = openStore({ path: join(scratch.path, 'upgrade.db') })
    try {
      const sqlite = store.db.$client
      expect(sqlite.query('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
      expect(sqlite.query('SELECT id, display_name, locale FROM principals ORDER BY id').all()).toEqual([
        { id: 'p-ann', display_name: 'ann', locale: 'fr' },
        { id: 'p-bob', display_name: 'bob', locale: 'fr' },
      ])
      // The old ids keep the order each person's identities were added in, before any added later.
      expect(
        sqlite
          .query('SELECT added_at, principal_id, external_id FROM channel_identities ORDER BY added_at')
          .all(),
      ).toEqual([
        { added_at: 1, principal_id: 'p-ann', external_id: 'ann' },
        { added_at: 2, principal_id: 'p-bob', external_id: 'bob' },
        { added_at: 3, principal_id: 'p-ann', external_id: 'ann-web' },
      ])
      attachIdentity(store, { principalId: 'p-ann', identity: { channel: 'console', externalId: 'ann-c' } })
      expect(personOf(store, 'p-ann')!.identities.map((identity) => identity.externalId)).toEqual([
        'ann',
        'ann-web',
        'ann-c',
      ])
      expect(sqlite.query('SELECT count(*) AS n FROM principal_roles').get()).toEqual({ n: 2 })
      expect(sqlite.query('SELECT label, locale FROM conversations').all()).toEqual([
        { label: 'Room', locale: 'de' },
      ])
      // The references point at the rebuilt principals: a deletion cascades as before.
      sqlite.run("DELETE FROM principals WHERE id = 'p-ann'")
      expect(sqlite.query('SELECT external_id FROM channel_identities').all()).toEqual([
        { external_id: 'bob' },
      ])
      expect(sqlite.query('SELECT principal_id FROM principal_roles').all()).toEqual([
        { principal_id: 'p-bob' },
      ])
      expect(() =>
        sqlite.run("INSERT INTO principal_roles (principal_id, role_id) VALUES ('nobody', 1)"),
      ).toThrow(/FOREIGN KEY/)
    } finally {
      store.close()
    }
  })

  it('rolls the whole migration back when a reference was already broken', () => {
    const before = databaseBefore(scratch.path, 'broken', '0009')
    seed(before)
    before.run('PRAGMA foreign_keys = OFF')
    before.run(
      "INSERT INTO channel_identities (principal_id, channel, external_id) VALUES ('ghost', 'chat', 'boo')",
    )
    before.close()
    const path = join(scratch.path, 'broken.db')
    expect(() => openStore({ path })).toThrow(StoreError)
    const after = new Database(path)
    try {
      // Still the schema before 0009, every row in place.
      for (const name of REBUILT) expect(tableSql(after, name)).not.toContain('WITHOUT ROWID')
      expect(after.query('SELECT count(*) AS n FROM channel_identities').get()).toEqual({ n: 4 })
      expect(after.query('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: 9 })
    } finally {
      after.close()
    }
  })

  it('leaves each table one B-tree, keyed by what it is looked up by (keep it when regenerating)', () => {
    const store = openStore({ path: join(scratch.path, 'fresh.db') })
    try {
      const sqlite = store.db.$client
      for (const name of REBUILT) expect(tableSql(sqlite, name)).toMatch(/WITHOUT ROWID\s*$/)
      expect(tableSql(sqlite, 'channel_identities')).not.toContain('AUTOINCREMENT')
      meetPrincipal(store, { identity: { channel: 'chat', externalId: 'cara' }, role: 'crowd' })
      const counters = sqlite
        .query("SELECT name FROM sqlite_sequence WHERE name = 'channel_identities'")
        .all()
      expect(counters).toEqual([])
    } finally {
      store.close()
    }
  })

  it('gives newcomers time-ordered ids, so each lands after the one before', () => {
    const store = openStore({ path: join(scratch.path, 'ordered.db') })
    try {
      const ids = Array.from(
        { length: 50 },
        (_, i) =>
          meetPrincipal(store, { identity: { channel: 'chat', externalId: `n${i}` }, role: 'crowd' }).id,
      )
      expect(
        ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
      ).toBe(true)
      expect([...ids].sort()).toEqual(ids)
    } finally {
      store.close()
    }
  })
})
