import { and, asc, eq, gte, inArray, isNotNull, isNull, lte } from 'drizzle-orm'
import type { Store } from '../store/open.ts'
import { sporeSchedules } from '../store/schema/index.ts'

export type ScheduleRow = typeof sporeSchedules.$inferSelect

/** Creates or replaces a schedule by (spore, id), keeping when it last ran and how. */
export function upsertSchedule(store: Store, row: Omit<ScheduleRow, 'lastRunAt' | 'lastError'>): ScheduleRow {
  const { spore, id, ...rest } = row
  return store.db
    .insert(sporeSchedules)
    .values(row)
    .onConflictDoUpdate({ target: [sporeSchedules.spore, sporeSchedules.id], set: rest })
    .returning()
    .get()
}

export function scheduleOf(store: Store, spore: string, id: string): ScheduleRow | undefined {
  return store.db
    .select()
    .from(sporeSchedules)
    .where(and(eq(sporeSchedules.spore, spore), eq(sporeSchedules.id, id)))
    .get()
}

export function deleteSchedule(store: Store, spore: string, id: string): boolean {
  return (
    store.db
      .delete(sporeSchedules)
      .where(and(eq(sporeSchedules.spore, spore), eq(sporeSchedules.id, id)))
      .returning({ id: sporeSchedules.id })
      .all().length > 0
  )
}

/** A spore's schedules whose id starts with `prefix`, by id (a key range, as storage lists). */
export function listSchedules(store: Store, spore: string, prefix: string): ScheduleRow[] {
  const range =
    prefix === '' ? [] : [gte(sporeSchedules.id, prefix), lte(sporeSchedules.id, `${prefix}\u{10FFFF}`)]
  return store.db
    .select()
    .from(sporeSchedules)
    .where(and(eq(sporeSchedules.spore, spore), ...range))
    .orderBy(asc(sporeSchedules.id))
    .all()
}

/** The earliest pending schedules of the given spores, nearest first: what the one timer waits for. */
export function nearestSchedules(store: Store, spores: readonly string[], limit: number): ScheduleRow[] {
  if (spores.length === 0) return []
  return store.db
    .select()
    .from(sporeSchedules)
    .where(and(isNotNull(sporeSchedules.nextAt), inArray(sporeSchedules.spore, [...spores])))
    .orderBy(asc(sporeSchedules.nextAt))
    .limit(limit)
    .all()
}

/** Moves a schedule on; `onlyIf` guards against a row replaced while it ran. */
export function updateSchedule(
  store: Store,
  key: { spore: string; id: string },
  fields: Partial<Pick<ScheduleRow, 'nextAt' | 'lastRunAt' | 'lastError'>>,
): void {
  store.db
    .update(sporeSchedules)
    .set(fields)
    .where(and(eq(sporeSchedules.spore, key.spore), eq(sporeSchedules.id, key.id)))
    .run()
}

/** Removes a one-shot that ran well, unless it was scheduled again meanwhile. */
export function finishOneShot(store: Store, key: { spore: string; id: string }, at: number): void {
  store.db
    .delete(sporeSchedules)
    .where(
      and(
        eq(sporeSchedules.spore, key.spore),
        eq(sporeSchedules.id, key.id),
        eq(sporeSchedules.at, at),
        isNull(sporeSchedules.nextAt),
      ),
    )
    .run()
}
