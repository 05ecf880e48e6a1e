import { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { type BunSQLiteDatabase, drizzle } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { shippedPath } from '../boot/shipped.ts'
import { attachHeldReads } from './held-reads.ts'
import { attachLogFlusher } from './log-flush.ts'
import { keepPrivate, privateFile } from './private-files.ts'
import * as schema from './schema/index.ts'

/** drizzle over the open connection; `$client` is the raw bun:sqlite handle, for pragmas and tests. */
export type StoreDatabase = BunSQLiteDatabase<typeof schema> & { $client: Database }

/** An open database, migrated to the code's schema. */
export interface Store {
  /** Where the data lives; `:memory:` for a snapshot of a file that did not exist. */
  readonly path: string
  readonly db: StoreDatabase
  close(): void
}

/** The database cannot be used: start-up stops with this message. */
export class StoreError extends Error {
  override readonly name: string = 'StoreError'
}

/** The database holds a migration this code does not know: it was written by a later Mycelo. */
export class NewerDatabaseError extends StoreError {
  override readonly name = 'NewerDatabaseError'
}

export interface OpenStoreOptions {
  readonly path: string
  /**
   * Work on an in-memory copy and leave the file untouched (the file is only read, and need not
   * exist): lets a check report exactly what a start would do without changing anything.
   */
  readonly snapshot?: boolean
}

export const MIGRATIONS_FOLDER = shippedPath('core/store/drizzle')

/** Opens (creating if needed) and migrates the database; refuses one written by a newer Mycelo. */
export function openStore(options: OpenStoreOptions): Store {
  const { path } = options
  const sqlite = options.snapshot ? openSnapshot(path) : openFile(path)
  try {
    const db = drizzle({ client: sqlite, schema })
    migrateKeepingReferences(db)
    const onDisk = !options.snapshot && path !== ':memory:'
    const flusher = onDisk ? attachLogFlusher(sqlite, path) : undefined
    // Its own connection, closed first: it holds a read transaction the store's close would wait on.
    const held = onDisk ? attachHeldReads(sqlite, path) : undefined
    const close = () => {
      held?.close()
      flusher?.close()
      sqlite.close()
    }
    return { path, db, close }
  } catch (error) {
    sqlite.close()
    throw error instanceof StoreError ? error : unusable(path, error)
  }
}

/**
 * Migrations run with foreign keys off, as SQLite's way of rebuilding a table requires (dropping a
 * parent table with them on would delete its children's rows), and inside drizzle's one transaction
 * a migration cannot switch them itself. A migration that rebuilds tables ends by checking every
 * reference inside that transaction (see 0009), so a broken one rolls it all back.
 */
function migrateKeepingReferences(db: StoreDatabase): void {
  db.$client.run('PRAGMA foreign_keys = OFF')
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER })
  db.$client.run('PRAGMA foreign_keys = ON')
}

/** How much of the database file reads may map: past it, they go through system calls again. */
const MAPPED_BYTES = 256 * 2 ** 20

function openFile(path: string): Database {
  // Every secret is stored in plain here: the file is the operator's alone before SQLite opens it,
  // and SQLite gives its WAL and SHM the database file's own mode.
  if (path !== ':memory:') privateFile(path)
  const sqlite = new Database(path, { create: true })
  try {
    // Waiting comes first: switching to WAL itself needs a lock another process may briefly hold.
    sqlite.run('PRAGMA busy_timeout = 5000')
    sqlite.run('PRAGMA journal_mode = WAL')
    // A commit survives the process being killed at any point; only a power cut may lose the last
    // moments of writes. The full guarantee would cost a disk flush per first contact.
    sqlite.run('PRAGMA synchronous = NORMAL')
    // Reads map the file instead of copying each page through a system call, so reading a principal
    // from a large store costs about what it costs from a small one. Pages are mapped as touched.
    sqlite.run(`PRAGMA mmap_size = ${MAPPED_BYTES}`)
    refuseNewer(sqlite, path)
    if (path !== ':memory:') keepPrivate(`${path}-wal`, `${path}-shm`)
    return sqlite
  } catch (error) {
    sqlite.close()
    throw error instanceof StoreError ? error : unusable(path, error)
  }
}

function openSnapshot(path: string): Database {
  if (path === ':memory:' || !existsSync(path)) return new Database(':memory:')
  let source: Database | undefined
  try {
    source = new Database(path, { readonly: true })
    refuseNewer(source, path)
    const bytes = source.serialize()
    // Header bytes 18-19 mark a WAL file; memory cannot hold a WAL, so the copy says rollback journal.
    if (bytes.length > 19) bytes.set([1, 1], 18)
    return Database.deserialize(bytes)
  } catch (error) {
    throw error instanceof StoreError ? error : unusable(path, error)
  } finally {
    source?.close()
  }
}

/** drizzle's migrator silently skips a database ahead of the code; this says so instead. */
function refuseNewer(sqlite: Database, path: string): void {
  const table = sqlite
    .query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get()
  if (table === null) return
  const latest = sqlite
    .query<{ hash: string; created_at: number | string }, []>(
      'SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1',
    )
    .get()
  if (latest === null) return
  const known = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER })
  const codeLatest = Math.max(0, ...known.map((migration) => migration.folderMillis))
  const createdAt = Number(latest.created_at)
  if (createdAt <= codeLatest) return
  const written = Number.isFinite(createdAt) ? new Date(createdAt).toISOString() : String(latest.created_at)
  throw new NewerDatabaseError(
    `the database at ${path} was written by a newer Mycelo (migration ${latest.hash.slice(0, 12)} ` +
      `of ${written}); upgrade Mycelo or restore a backup`,
  )
}

function unusable(path: string, error: unknown): StoreError {
  const detail = error instanceof Error ? error.message : String(error)
  return new StoreError(`the database at ${path} cannot be opened: ${detail}`, { cause: error })
}
