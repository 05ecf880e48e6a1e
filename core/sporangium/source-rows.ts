import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Store } from '../store/index.ts'
import { sources } from '../store/schema/index.ts'

export type SourceRow = typeof sources.$inferSelect
export type SourceInsert = typeof sources.$inferInsert

/** Every source, oldest first, so the official ones seeded at first start lead. */
export function sourceRows(store: Store): SourceRow[] {
  return store.db.select().from(sources).orderBy(asc(sources.createdAt), asc(sources.id)).all()
}

export function sourceRow(store: Store, id: string): SourceRow | undefined {
  return store.db.select().from(sources).where(eq(sources.id, id)).get()
}

/** An id already taken is left alone: seeding twice, or after an operator's edits, changes nothing. */
export function insertSource(store: Store, row: SourceInsert): boolean {
  return (
    store.db.insert(sources).values(row).onConflictDoNothing().returning({ id: sources.id }).all().length > 0
  )
}

export function patchSource(store: Store, id: string, set: Partial<SourceInsert>): SourceRow | undefined {
  return store.db.update(sources).set(set).where(eq(sources.id, id)).returning().get()
}

export function removeSource(store: Store, id: string): boolean {
  return store.db.delete(sources).where(eq(sources.id, id)).returning({ id: sources.id }).all().length > 0
}

/**
 * Pins a key only where none is pinned yet, in one statement, so two first reads cannot each pin
 * a different key. Answers the key pinned afterwards.
 */
export function pinPublisherKey(store: Store, id: string, key: string): string | undefined {
  store.db
    .update(sources)
    .set({ publisherKey: key })
    .where(and(eq(sources.id, id), isNull(sources.publisherKey)))
    .run()
  return sourceRow(store, id)?.publisherKey ?? undefined
}
