import { eq } from 'drizzle-orm'
import type { Store } from './open.ts'
import { pluginInstalls } from './schema/index.ts'

/** What an install writes to a spore's row: its state, and the strain in place and the one kept. */
export interface StrainRow {
  readonly enabled: boolean
  readonly reason: string | null
  readonly sourceId: string | null
  readonly strain: string | null
  readonly previousSourceId: string | null
  readonly previousStrain: string | null
}

/** The spore's row as an install reads it, or undefined when it has none. */
export function strainRowOf(store: Store, name: string): StrainRow | undefined {
  return store.db
    .select({
      enabled: pluginInstalls.enabled,
      reason: pluginInstalls.reason,
      sourceId: pluginInstalls.sourceId,
      strain: pluginInstalls.strain,
      previousSourceId: pluginInstalls.previousSourceId,
      previousStrain: pluginInstalls.previousStrain,
    })
    .from(pluginInstalls)
    .where(eq(pluginInstalls.name, name))
    .get()
}

/** Writes the row whole; settled, since an install decides `enabled` itself. */
export function writeStrainRow(store: Store, name: string, row: StrainRow): void {
  const values = { ...row, settled: true }
  store.db
    .insert(pluginInstalls)
    .values({ name, ...values })
    .onConflictDoUpdate({ target: pluginInstalls.name, set: values })
    .run()
}

/** Puts a row back as it was before a failed step: `undefined` removes it. Settings are never touched. */
export function restoreStrainRow(store: Store, name: string, row: StrainRow | undefined): void {
  if (row === undefined) store.db.delete(pluginInstalls).where(eq(pluginInstalls.name, name)).run()
  else writeStrainRow(store, name, row)
}
