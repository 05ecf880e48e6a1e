import type { Store } from './open.ts'
import { pluginInstalls } from './schema/index.ts'

/** An install row as the plugin listing shows it. */
export interface InstallRecord {
  readonly enabled: boolean
  readonly reason: string | null
  /** The source and strain an inoculated spore came from; null for one found on disk. */
  readonly source: string | null
  readonly strain: string | null
}

/** Every install row, by plugin name. */
export function installRecords(store: Store): Map<string, InstallRecord> {
  const rows = store.db.select().from(pluginInstalls).all()
  return new Map(
    rows.map((row) => [
      row.name,
      { enabled: row.enabled, reason: row.reason, source: row.sourceId, strain: row.strain },
    ]),
  )
}
