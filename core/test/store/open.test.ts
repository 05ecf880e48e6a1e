import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { MIGRATIONS_FOLDER, NewerDatabaseError, openStore, StoreError } from '../../store/index.ts'
import { pluginInstalls } from '../../store/schema/index.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-open')
afterAll(() => scratch.remove())

const latestMigration = () =>
  Math.max(...readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((m) => m.folderMillis))

describe('openStore', () => {
  it('creates the parent folder and the file, with WAL and foreign keys on', () => {
    const path = join(scratch.path, 'nested', 'deeper', 'mycelo.db')
    const store = openStore({ path })
    try {
      expect(existsSync(path)).toBe(true)
      const probe = new Database(path)
      expect(probe.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
      probe.close()
      const client = store.db.$client
      expect(client.query('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
      const tables = client
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((row) => row.name)
      expect(tables).toEqual(
        expect.arrayContaining([
          'principals',
          'channel_identities',
          'roles',
          'role_commands',
          'principal_roles',
          'plugin_installs',
          'plugin_settings',
          'conversations',
          'broadcast_targets',
          'command_context_rules',
          'inhibitor_channels',
          'sources',
          'operator_accounts',
          'operator_sessions',
        ]),
      )
    } finally {
      store.close()
    }
  })

  it('keeps its data across a reopen, applying the migrations only once', () => {
    const path = join(scratch.path, 'reopen.db')
    const first = openStore({ path })
    first.db.insert(pluginInstalls).values({ name: 'console', enabled: true }).run()
    first.close()
    const second = openStore({ path })
    try {
      expect(
        second.db
          .select()
          .from(pluginInstalls)
          .all()
          .map((row) => row.name),
      ).toEqual(['console'])
      const applied = second.db.$client.query('SELECT count(*) AS n FROM __drizzle_migrations').get()
      expect(applied).toEqual({ n: readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length })
    } finally {
      second.close()
    }
  })

  it('stores no message content: no table has a column that could hold what was said, but the outbox', () => {
    const store = openStore({ path: join(scratch.path, 'columns.db') })
    try {
      const client = store.db.$client
      const tables = client
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
      // The outbox holds what the bot itself says, only until its channel took it (or it grew too old).
      expect(tables.map(({ name }) => name)).toContain('outbox')
      const kept = tables.filter(({ name }) => name !== 'outbox')
      const columns = kept.flatMap(({ name }) =>
        client
          .query<{ name: string }, []>(`PRAGMA table_info(${JSON.stringify(name)})`)
          .all()
          .map((column) => column.name),
      )
      expect(columns.length).toBeGreaterThan(40)
      expect(columns.filter((name) => /text|content|body|message|attachment/.test(name))).toEqual([])
    } finally {
      store.close()
    }
  })

  it('refuses a database written by a newer Mycelo, naming the file and the migration', () => {
    const path = join(scratch.path, 'newer.db')
    openStore({ path }).close()
    const raw = new Database(path)
    const later = latestMigration() + 86_400_000
    raw.run('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)', [
      'f00dfacecafe0123456789',
      later,
    ])
    raw.close()
    let refusal: unknown
    try {
      openStore({ path }).close()
    } catch (error) {
      refusal = error
    }
    expect(refusal).toBeInstanceOf(NewerDatabaseError)
    expect((refusal as Error).message).toBe(
      `the database at ${path} was written by a newer Mycelo (migration f00dfacecafe of ` +
        `${new Date(later).toISOString()}); upgrade Mycelo or restore a backup`,
    )
    expect(() => openStore({ path, snapshot: true })).toThrow('was written by a newer Mycelo')
  })

  it('refuses a file that is not a database, naming it', () => {
    const path = join(scratch.path, 'garbage.db')
    writeFileSync(path, 'this is not a database, it is a note to self\n'.repeat(100))
    let refusal: unknown
    try {
      openStore({ path }).close()
    } catch (error) {
      refusal = error
    }
    expect(refusal).toBeInstanceOf(StoreError)
    expect((refusal as Error).message).toStartWith(`the database at ${path} cannot be opened: `)
  })

  it('a snapshot works on a copy: a missing file stays missing, an existing one unchanged', () => {
    const missing = join(scratch.path, 'absent', 'never.db')
    const empty = openStore({ path: missing, snapshot: true })
    empty.db.insert(pluginInstalls).values({ name: 'console', enabled: true }).run()
    empty.close()
    expect(existsSync(join(scratch.path, 'absent'))).toBe(false)

    const path = join(scratch.path, 'snapshot.db')
    const real = openStore({ path })
    real.db.insert(pluginInstalls).values({ name: 'kept', enabled: true }).run()
    real.close()
    const copy = openStore({ path, snapshot: true })
    expect(
      copy.db
        .select()
        .from(pluginInstalls)
        .all()
        .map((row) => row.name),
    ).toEqual(['kept'])
    copy.db.insert(pluginInstalls).values({ name: 'only-in-copy', enabled: false }).run()
    copy.close()
    const again = openStore({ path })
    expect(
      again.db
        .select()
        .from(pluginInstalls)
        .all()
        .map((row) => row.name),
    ).toEqual(['kept'])
    again.close()
  })
})
