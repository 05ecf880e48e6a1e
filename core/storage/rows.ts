import { and, asc, eq, gte, lte, sql } from 'drizzle-orm'
import type { StoreDatabase } from '../store/open.ts'
import { sporeData, sporeMigrations, sporeSchedules } from '../store/schema/index.ts'

/** A drizzle handle or the transaction inside one: both answer the same queries. */
export type Queryable = Pick<StoreDatabase, 'select' | 'selectDistinct' | 'insert' | 'update' | 'delete'>

/** One entry's JSON text, or undefined. */
export function readEntry(db: Queryable, spore: string, key: string): string | undefined {
  return db
    .select({ value: sporeData.value })
    .from(sporeData)
    .where(and(eq(sporeData.spore, spore), eq(sporeData.key, key)))
    .get()?.value
}

export function writeEntry(db: Queryable, spore: string, key: string, value: string): void {
  db.insert(sporeData)
    .values({ spore, key, value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: [sporeData.spore, sporeData.key], set: { value, updatedAt: new Date() } })
    .run()
}

export function deleteEntry(db: Queryable, spore: string, key: string): boolean {
  return (
    db
      .delete(sporeData)
      .where(and(eq(sporeData.spore, spore), eq(sporeData.key, key)))
      .returning({ key: sporeData.key })
      .all().length > 0
  )
}

/**
 * Entries whose key starts with `prefix`, by key. A range on the primary key rather than LIKE, so
 * `%` and `_` in a prefix mean themselves; the upper bound is the prefix followed by the highest
 * code point, so only a key continuing with U+10FFFF itself (a non-character) falls outside it.
 */
export function listEntries(db: Queryable, spore: string, prefix: string): { key: string; value: string }[] {
  const range = prefix === '' ? [] : [gte(sporeData.key, prefix), lte(sporeData.key, `${prefix}\u{10FFFF}`)]
  return db
    .select({ key: sporeData.key, value: sporeData.value })
    .from(sporeData)
    .where(and(eq(sporeData.spore, spore), ...range))
    .orderBy(asc(sporeData.key))
    .all()
}

/** The spores that have stored anything, by name. */
export function sporesWithData(store: { db: Queryable }): string[] {
  return store.db
    .selectDistinct({ spore: sporeData.spore })
    .from(sporeData)
    .orderBy(asc(sporeData.spore))
    .all()
    .map((row) => row.spore)
}

/** The bytes a spore's entries use: keys and JSON texts, in UTF-8. */
export function bytesUsed(db: Queryable, spore: string): number {
  const row = db
    .select({
      bytes: sql<number>`coalesce(sum(length(cast(${sporeData.key} as blob)) + length(cast(${sporeData.value} as blob))), 0)`,
    })
    .from(sporeData)
    .where(eq(sporeData.spore, spore))
    .get()
  return Number(row?.bytes ?? 0)
}

/** The migration versions a spore has applied. */
export function appliedVersions(db: Queryable, spore: string): Set<number> {
  const rows = db
    .select({ version: sporeMigrations.version })
    .from(sporeMigrations)
    .where(eq(sporeMigrations.spore, spore))
    .all()
  return new Set(rows.map((row) => row.version))
}

export function recordVersion(db: Queryable, spore: string, version: number): void {
  db.insert(sporeMigrations).values({ spore, version, appliedAt: new Date() }).run()
}

/** What a spore's uninstall removes when the operator does not keep its data. */
export function purgeSporeData(db: StoreDatabase, spore: string): { entries: number; schedules: number } {
  return db.transaction((tx) => {
    const entries = tx
      .delete(sporeData)
      .where(eq(sporeData.spore, spore))
      .returning({ key: sporeData.key })
      .all().length
    tx.delete(sporeMigrations).where(eq(sporeMigrations.spore, spore)).run()
    const schedules = tx
      .delete(sporeSchedules)
      .where(eq(sporeSchedules.spore, spore))
      .returning({ id: sporeSchedules.id })
      .all().length
    return { entries, schedules }
  })
}
