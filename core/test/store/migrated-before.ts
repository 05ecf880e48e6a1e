import { Database } from 'bun:sqlite'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { MIGRATIONS_FOLDER } from '../../store/index.ts'

/**
 * A database in `folder` migrated only up to the migration before `tag` (e.g. '0011'): the schema
 * an operator's store had before it, for a test of what that migration does to their rows.
 */
export function databaseBefore(folder: string, name: string, tag: string): Database {
  const migrations = join(folder, `${name}-migrations`)
  cpSync(MIGRATIONS_FOLDER, migrations, { recursive: true })
  const journalPath = join(migrations, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  journal.entries = journal.entries.filter((entry) => entry.tag < tag)
  writeFileSync(journalPath, JSON.stringify(journal))
  const sqlite = new Database(join(folder, `${name}.db`), { create: true })
  sqlite.run('PRAGMA journal_mode = WAL')
  migrate(drizzle({ client: sqlite }), { migrationsFolder: migrations })
  return sqlite
}
