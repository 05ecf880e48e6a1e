import type { StorageMigration } from '../contract/storage.ts'
import { migrationsProblem } from '../storage/migrations.ts'
import { errorText, type Failures, isRecord } from './failures.ts'
import { memoryStorage } from './memory-storage.ts'

/**
 * septum 1.1: the default export's `migrations`, when present, as germination reads them (positive
 * integer versions, strictly increasing, each with up()), then each run in order, once, on an
 * empty storage, as a first install runs them: none may throw or return a promise.
 */
export async function checkMigrations(module: unknown, failures: Failures): Promise<void> {
  if (!isRecord(module) || module.migrations === undefined) return
  const problem = migrationsProblem(module.migrations)
  if (problem !== undefined) {
    failures.add(`migrations: the bot would refuse them: ${problem}`)
    return
  }
  const storage = memoryStorage()
  for (const migration of module.migrations as readonly StorageMigration[]) {
    try {
      await storage.transaction((tx) => migration.up(tx))
    } catch (error) {
      failures.add(`migrations: version ${migration.version} failed on an empty storage: ${errorText(error)}`)
      return
    }
  }
}
