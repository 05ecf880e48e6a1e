import { Cron } from 'croner'
import type { MissedRunPolicy, ScheduleOptions } from '../contract/schedule.ts'
import { ScheduleError } from './schedule-error.ts'

/** Enough for a namespaced id such as `reminder:<principal>:<n>`. */
export const MAX_SCHEDULE_ID_LENGTH = 256

/** Options as a store keeps them: every default filled in. */
export interface CheckedOptions {
  readonly id: string
  readonly timeZone: string
  readonly missed: MissedRunPolicy
  readonly data: unknown
}

/** Checks a schedule's options, filling the time zone and missed policy defaults. */
export function checkScheduleOptions(options: ScheduleOptions, defaultTimeZone = 'UTC'): CheckedOptions {
  if (typeof options !== 'object' || options === null)
    throw new ScheduleError('schedule options must be an object with an id')
  const { id } = options
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_SCHEDULE_ID_LENGTH) {
    throw new ScheduleError(`a schedule id must be a string of 1 to ${MAX_SCHEDULE_ID_LENGTH} characters`)
  }
  const missed = options.missed ?? 'skip'
  if (missed !== 'skip' && missed !== 'run-once') {
    throw new ScheduleError(
      `schedule "${id}": missed must be "skip" or "run-once", got ${JSON.stringify(missed)}`,
    )
  }
  const timeZone = checkTimeZone(options.timeZone ?? defaultTimeZone, id)
  let data: unknown = options.data ?? null
  try {
    // Persisted as JSON: what comes back on a run is what JSON keeps.
    data = JSON.parse(JSON.stringify(data) ?? 'null')
  } catch (error) {
    throw new ScheduleError(`schedule "${id}": data is not JSON: ${(error as Error).message}`)
  }
  return { id, timeZone, missed, data }
}

// Building an Intl formatter is the costly part of the check: each name is looked up once.
const knownZones = new Map<string, string>()

/** An IANA time zone name the runtime knows, such as `Europe/Paris`. */
export function checkTimeZone(timeZone: unknown, id: string): string {
  if (typeof timeZone === 'string' && timeZone.length > 0) {
    const known = knownZones.get(timeZone)
    if (known !== undefined) return known
    try {
      const resolved = new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone
      knownZones.set(timeZone, resolved)
      return resolved
    } catch {
      // Refused below with the name.
    }
  }
  throw new ScheduleError(
    `schedule "${id}": time zone ${JSON.stringify(timeZone)} is not an IANA time zone such as "Europe/Paris"`,
  )
}

/** Parses a 5- or 6-field cron expression, refusing one croner cannot read. */
export function checkCron(expression: unknown, timeZone: string, id: string): Cron {
  if (typeof expression !== 'string' || expression.trim() === '') {
    throw new ScheduleError(`schedule "${id}": a cron expression must be a non-empty string`)
  }
  const fields = expression.trim().split(/\s+/).length
  if (fields !== 5 && fields !== 6) {
    throw new ScheduleError(
      `schedule "${id}": cron expression "${expression}" has ${fields} fields; expected 5 (minute hour day month weekday) or 6 (with seconds first)`,
    )
  }
  try {
    return new Cron(expression, { timezone: timeZone, paused: true })
  } catch (error) {
    throw new ScheduleError(
      `schedule "${id}": cron expression "${expression}" is invalid: ${(error as Error).message}`,
    )
  }
}

/** The first time strictly after `after` that a cron expression names, or undefined if none. */
export function nextCronRun(expression: string, timeZone: string, after: Date): Date | undefined {
  const next = new Cron(expression, { timezone: timeZone, paused: true }).nextRun(after)
  return next ?? undefined
}

/** A one-shot time: a valid Date, or an ISO 8601 text with its offset, later than `now`. */
export function checkOnceTime(at: unknown, now: Date, id: string): Date {
  let time: Date | undefined
  if (at instanceof Date) time = at
  else if (typeof at === 'string' && /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(at.trim()))
    time = new Date(at)
  if (time === undefined || Number.isNaN(time.getTime())) {
    throw new ScheduleError(
      `schedule "${id}": ${JSON.stringify(at)} is not a time; give a Date or an ISO 8601 time with its offset, such as "2026-05-01T09:00:00+02:00"`,
    )
  }
  if (time.getTime() <= now.getTime()) {
    throw new ScheduleError(
      `schedule "${id}": ${time.toISOString()} is already past (now ${now.toISOString()})`,
    )
  }
  return time
}
