// A spore's storage in a SQLite file, in the tables the bot keeps it in (spore_data and
// spore_migrations, one row per key and per applied migration), so a second test bot on the same
// file finds what the first wrote and runs only the migrations it has not applied.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_QUOTA, type MemoryStorage, memoryStorage } from '../conformance/memory-storage.ts'
import type { StorageMigration } from '../contract/storage.ts'
import { type EntryRows, storageOver } from '../storage/entries-view.ts'
import { decodeValue } from '../storage/values.ts'

/** The calls both Bun's `bun:sqlite` and Node's `node:sqlite` (22.5 or later) answer alike. */
interface Statement {
  all(...params: unknown[]): unknown[]
  get(...params: unknown[]): unknown
  run(...params: unknown[]): { changes: number | bigint }
}
interface Database {
  exec(sql: string): unknown
  prepare(sql: string): Statement
  close(): void
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS spore_data (spore TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  updated_at INTEGER NOT NULL DEFAULT (unixepoch('subsec') * 1000), PRIMARY KEY (spore, key));
CREATE TABLE IF NOT EXISTS spore_migrations (spore TEXT NOT NULL, version INTEGER NOT NULL,
  applied_at INTEGER NOT NULL DEFAULT (unixepoch('subsec') * 1000), PRIMARY KEY (spore, version));`

/** Opens (or creates) the file with the runtime's own SQLite; Node before 22.5 has none. */
async function open(file: string): Promise<Database> {
  // Specifiers held in variables: neither is loaded, nor resolved by a bundler, unless asked for.
  const bun = 'bun:sqlite'
  const node = 'node:sqlite'
  if (typeof process !== 'undefined' && process.versions.bun !== undefined) {
    const { Database } = (await import(bun)) as { Database: new (file: string) => Database }
    return new Database(file)
  }
  let loaded: { DatabaseSync: new (file: string) => Database }
  try {
    loaded = await import(node)
  } catch {
    throw new Error(
      `a SQLite storage needs Bun or Node 22.5 or later (node:sqlite); this is Node ${process.versions.node}: use storage 'memory'`,
    )
  }
  return new loaded.DatabaseSync(file)
}

/** The storage of every spore a test bot runs, in one SQLite file. */
export interface SqliteFile {
  /** The file's path. */
  readonly file: string
  storageOf(spore: string): BotStorage
  /** Closes the file; removes it too when the bot made it in the temp folder. */
  close(): void
}

/** A test bot's storage for one spore: what a test reads, and migrations as the bot runs them. */
export interface BotStorage extends MemoryStorage {
  /** Runs the migration in a transaction unless this storage records it as applied; answers whether it ran. */
  migrate(migration: StorageMigration): Promise<boolean>
}

/** A fresh in-memory storage: it has applied nothing, so every migration runs. */
export function memoryBotStorage(): BotStorage {
  const storage = memoryStorage()
  return {
    ...storage,
    async migrate(migration) {
      await storage.transaction((tx) => migration.up(tx))
      return true
    },
  }
}

/** `file` as given, or a new one in the system's temp folder, removed at close(). */
export async function sqliteFile(file?: string): Promise<SqliteFile> {
  const made = file === undefined ? mkdtempSync(join(tmpdir(), 'septum-test-bot-')) : undefined
  const path = file ?? join(made!, 'storage.sqlite')
  const db = await open(path)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec(SCHEMA)
  let closed = false
  return {
    file: path,
    storageOf: (spore) => storageIn(db, spore),
    close() {
      if (closed) return
      closed = true
      db.close()
      if (made !== undefined) rmSync(made, { recursive: true, force: true })
    },
  }
}

function storageIn(db: Database, spore: string): BotStorage {
  const read = db.prepare('SELECT value FROM spore_data WHERE spore = ? AND key = ?')
  const write = db.prepare(
    `INSERT INTO spore_data (spore, key, value) VALUES (?, ?, ?)
     ON CONFLICT (spore, key) DO UPDATE SET value = excluded.value, updated_at = unixepoch('subsec') * 1000`,
  )
  const remove = db.prepare('DELETE FROM spore_data WHERE spore = ? AND key = ?')
  // substr, not LIKE: a key may hold % and _, which LIKE would read as wildcards.
  const list = db.prepare(
    'SELECT key, value FROM spore_data WHERE spore = ? AND substr(key, 1, length(?)) = ? ORDER BY key',
  )
  const bytes = db.prepare(
    'SELECT coalesce(sum(length(cast(key AS BLOB)) + length(cast(value AS BLOB))), 0) AS bytes FROM spore_data WHERE spore = ?',
  )
  const applied = db.prepare('SELECT 1 AS applied FROM spore_migrations WHERE spore = ? AND version = ?')
  const record = db.prepare('INSERT INTO spore_migrations (spore, version) VALUES (?, ?)')
  const rows: EntryRows = {
    read: (key) => (read.get(spore, key) as { value: string } | undefined | null)?.value ?? undefined,
    write: (key, json) => void write.run(spore, key, json),
    remove: (key) => Number(remove.run(spore, key).changes) > 0,
    list: (prefix) =>
      (list.all(spore, prefix, prefix) as { key: string; value: string }[]).map((row) => ({
        key: row.key,
        json: row.value,
      })),
    bytes: () => Number((bytes.get(spore) as { bytes: number | bigint }).bytes),
  }
  const atomically = <T>(inside: () => T): T => {
    db.exec('BEGIN IMMEDIATE')
    try {
      const result = inside()
      db.exec('COMMIT')
      return result
    } catch (error) {
      db.exec('ROLLBACK')
      throw error
    }
  }
  const storage = storageOver(rows, DEFAULT_QUOTA, atomically)
  return {
    get: storage.get,
    set: storage.set,
    delete: storage.delete,
    list: storage.list,
    transaction: storage.transaction,
    snapshot: () => Object.fromEntries(rows.list('').map(({ key, json }) => [key, decodeValue(json)])),
    bytes: rows.bytes,
    async migrate(migration) {
      if (applied.get(spore, migration.version)) return false
      storage.run((tx) => {
        // Its version recorded in the same transaction: a migration that throws leaves no record.
        const result: unknown = migration.up(tx)
        record.run(spore, migration.version)
        return result
      })
      return true
    },
  }
}
