import { migrationsProblem, type StorageMigration } from '@mycelo/septum'
import type { Store } from '../store/open.ts'
import { appliedVersions, recordVersion } from './rows.ts'
import type { SqliteSporeStorage } from './spore-storage.ts'

export type MigrationOutcome =
  | { readonly ok: true; readonly applied: readonly number[] }
  | { readonly ok: false; readonly reason: string }

/**
 * Runs the migrations a spore declares that its store has not applied yet, in order, each in its
 * own transaction with its version recorded: one that throws rolls back, and stops the rest.
 */
export function runMigrations(options: {
  readonly store: Store
  readonly spore: string
  readonly storage: SqliteSporeStorage
  readonly migrations: unknown
}): MigrationOutcome {
  const { store, spore, storage } = options
  const problem = migrationsProblem(options.migrations)
  if (problem !== undefined) return { ok: false, reason: `storage migrations refused: ${problem}` }
  const migrations = (options.migrations ?? []) as readonly StorageMigration[]
  const done = appliedVersions(store.db, spore)
  const applied: number[] = []
  for (const migration of migrations) {
    if (done.has(migration.version)) continue
    try {
      storage.run((tx) => {
        const result: unknown = migration.up(tx)
        recordVersion(store.db, spore, migration.version)
        return result
      })
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error)
      return { ok: false, reason: `storage migration ${migration.version} failed: ${text}` }
    }
    applied.push(migration.version)
  }
  return { ok: true, applied }
}
