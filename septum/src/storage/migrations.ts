import type { StorageMigration } from '../contract/storage.ts'

/**
 * What is wrong with a module's `migrations` export, or undefined when it is absent or sound:
 * an array of `{ version, up }`, versions positive integers in strictly increasing order.
 */
export function migrationsProblem(migrations: unknown): string | undefined {
  if (migrations === undefined) return undefined
  if (!Array.isArray(migrations)) return `migrations must be an array, got ${typeof migrations}`
  let previous = 0
  for (const [index, migration] of migrations.entries()) {
    const at = `migrations[${index}]`
    if (typeof migration !== 'object' || migration === null)
      return `${at} must be an object with version and up`
    const { version, up } = migration as Partial<StorageMigration>
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
      return `${at}.version must be a positive integer, got ${JSON.stringify(version) ?? typeof version}`
    }
    if (version <= previous) {
      return `${at}.version ${version} does not come after ${previous}: versions must be strictly increasing`
    }
    if (typeof up !== 'function') return `${at} (version ${version}) has no up(tx) function`
    previous = version
  }
  return undefined
}
