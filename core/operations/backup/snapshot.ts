import { Database } from 'bun:sqlite'

/**
 * A consistent copy of the database as one file, through SQLite's own `VACUUM INTO`: it reads in
 * one transaction, so a bot writing beside it (WAL) never leaves a half-written copy.
 */
export function snapshotDatabase(source: string, target: string): void {
  const sqlite = new Database(source, { readonly: true })
  try {
    sqlite.run('PRAGMA busy_timeout = 5000')
    sqlite.query('VACUUM INTO ?').run(target)
  } finally {
    sqlite.close()
  }
}
