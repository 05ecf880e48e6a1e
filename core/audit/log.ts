import { and, desc, eq, lt } from 'drizzle-orm'
import type { Store } from '../store/index.ts'
import { auditLog as auditTable } from '../store/schema/index.ts'
import type { AuditEntry } from './entry.ts'

export type { AuditEntry }

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'> & { readonly at?: number }

export interface ListAuditOptions {
  /** At most this many, newest first; 50 unless given, never more than 500. */
  readonly limit?: number
  /** Only entries older than this id: the next page after the last one shown. */
  readonly before?: number
  /** Only what this principal did (on any surface). */
  readonly principalId?: string
}

const MOST = 500

/** The audit log over the store: recorded by the audited() decorator, read by the API. */
export function auditLog(store: Store) {
  const { db } = store
  return {
    record(entry: NewAuditEntry): void {
      db.insert(auditTable)
        .values({
          ...(entry.at === undefined ? {} : { at: new Date(entry.at) }),
          actorKind: entry.actorKind,
          actor: entry.actor,
          via: entry.via,
          method: entry.method,
          args: JSON.stringify(entry.args ?? []),
          outcome: entry.outcome,
          detail: entry.detail,
        })
        .run()
    },

    list(options: ListAuditOptions = {}): AuditEntry[] {
      const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? 50)), MOST)
      const before = options.before === undefined ? undefined : lt(auditTable.id, options.before)
      const actor = options.principalId === undefined ? undefined : eq(auditTable.actor, options.principalId)
      return db
        .select()
        .from(auditTable)
        .where(and(before, actor))
        .orderBy(desc(auditTable.id))
        .limit(limit)
        .all()
        .map((row) => ({
          id: row.id,
          at: row.at.getTime(),
          actorKind: row.actorKind,
          actor: row.actor,
          via: row.via,
          method: row.method,
          args: JSON.parse(row.args) as unknown,
          outcome: row.outcome as AuditEntry['outcome'],
          detail: row.detail,
        }))
    },
  }
}
