import type {
  ScheduledRun,
  ScheduleEntry,
  ScheduleHandler,
  ScheduleOptions,
  SporeSchedule,
} from '../contract/schedule.ts'
import {
  type CheckedOptions,
  checkCron,
  checkOnceTime,
  checkScheduleOptions,
  nextCronRun,
} from '../schedule/timing.ts'

export interface ManualScheduleOptions {
  /** Where the test's clock starts; 2026-01-01T00:00:00Z unless given. */
  readonly now?: Date | string
  /** The time zone a schedule without one uses; UTC unless given. */
  readonly timeZone?: string
}

/** A SporeSchedule whose clock moves only when the test says, running what falls due on the way. */
export interface ManualSchedule extends SporeSchedule {
  /** The test's current time. */
  now(): Date
  /** Moves the clock forward, running each due schedule at its own time, in order, awaiting each. */
  advance(ms: number): Promise<void>
  /** The errors runs threw, in order, as the bot would keep them in `lastError`. */
  readonly errors: readonly { readonly id: string; readonly error: unknown }[]
}

interface Row {
  readonly options: CheckedOptions
  readonly cron: string | undefined
  nextAt: number | undefined
  lastRunAt?: number
  lastError?: string
}

/**
 * septum 1.1: an in-memory SporeSchedule for a spore's own tests. Cron and time checks are the
 * bot's own; nothing is persisted and nothing runs on a real timer.
 */
export function manualSchedule(options: ManualScheduleOptions = {}): ManualSchedule {
  let now = new Date(options.now ?? '2026-01-01T00:00:00Z').getTime()
  const rows = new Map<string, Row>()
  const handlers = new Map<string, ScheduleHandler>()
  const prefixes: [string, ScheduleHandler][] = []
  const errors: { id: string; error: unknown }[] = []
  const defaults = options.timeZone ?? 'UTC'
  const entry = (row: Row): ScheduleEntry => ({
    id: row.options.id,
    ...(row.cron === undefined ? {} : { cron: row.cron }),
    timeZone: row.options.timeZone,
    ...(row.nextAt === undefined ? {} : { nextAt: new Date(row.nextAt).toISOString() }),
    missed: row.options.missed,
    data: row.options.data,
    ...(row.lastRunAt === undefined ? {} : { lastRunAt: new Date(row.lastRunAt).toISOString() }),
    ...(row.lastError === undefined ? {} : { lastError: row.lastError }),
  })
  const handlerOf = (id: string) =>
    handlers.get(id) ?? prefixes.find(([prefix]) => id.startsWith(prefix))?.[1]
  const runOne = async (row: Row) => {
    const dueAt = row.nextAt!
    const id = row.options.id
    row.nextAt =
      row.cron === undefined
        ? undefined
        : nextCronRun(row.cron, row.options.timeZone, new Date(now))?.getTime()
    const handler = handlerOf(id)
    if (handler === undefined) return
    const run: ScheduledRun = {
      id,
      dueAt: new Date(dueAt).toISOString(),
      missed: false,
      data: row.options.data,
      signal: new AbortController().signal,
    }
    row.lastRunAt = now
    try {
      await handler(run)
      delete row.lastError
      if (row.cron === undefined && row.nextAt === undefined && rows.get(id) === row) rows.delete(id)
    } catch (error) {
      row.lastError = error instanceof Error ? error.message : String(error)
      errors.push({ id, error })
    }
  }
  return {
    async cron(expression, scheduleOptions: ScheduleOptions, handler) {
      const checked = checkScheduleOptions(scheduleOptions, defaults)
      checkCron(expression, checked.timeZone, checked.id)
      const nextAt = nextCronRun(expression, checked.timeZone, new Date(now))?.getTime()
      const row: Row = { options: checked, cron: expression, nextAt }
      rows.set(checked.id, row)
      handlers.set(checked.id, handler)
      return entry(row)
    },
    async once(at, scheduleOptions: ScheduleOptions, handler) {
      const checked = checkScheduleOptions(scheduleOptions, defaults)
      const time = checkOnceTime(at, new Date(now), checked.id)
      const row: Row = { options: checked, cron: undefined, nextAt: time.getTime() }
      rows.set(checked.id, row)
      handlers.set(checked.id, handler)
      return entry(row)
    },
    handle(idPrefix, handler) {
      prefixes.push([idPrefix, handler])
    },
    async cancel(id) {
      handlers.delete(id)
      return rows.delete(id)
    },
    async list(idPrefix = '') {
      return [...rows.values()]
        .filter((row) => row.options.id.startsWith(idPrefix))
        .sort((a, b) => a.options.id.localeCompare(b.options.id))
        .map(entry)
    },
    now: () => new Date(now),
    async advance(ms) {
      const target = now + ms
      for (;;) {
        const due = [...rows.values()]
          .filter((row) => row.nextAt !== undefined && row.nextAt <= target)
          .sort((a, b) => a.nextAt! - b.nextAt!)[0]
        if (due === undefined) break
        now = Math.max(now, due.nextAt!)
        await runOne(due)
      }
      now = target
    },
    errors,
  }
}
