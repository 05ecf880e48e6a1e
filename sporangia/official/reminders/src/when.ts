import { nextCronRun } from '@mycelo/septum'
import { cronOf, type ReminderRequest } from './request.ts'

/** The calendar day (`YYYY-MM-DD`) an instant falls on in a time zone. */
export function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at)
}

/** Whether a name is an IANA time zone this runtime knows; answers its canonical spelling. */
export function knownTimeZone(name: string): string | undefined {
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(name)) return undefined
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

/** How many years ahead a dated reminder may be. */
const YEARS_AHEAD = 5

/**
 * When a one-shot request first falls due after `now`, in the reader's zone (cron does the zone
 * arithmetic, daylight saving included); undefined for a date already past. A repeating request
 * has no single time: its cron expression says it.
 */
export function firstDue(request: ReminderRequest, timeZone: string, now: Date): Date | undefined {
  if (request.kind === 'in') return new Date(now.getTime() + request.ms)
  if (request.date === undefined)
    return nextCronRun(cronOf(request.hour, request.minute, request.repeat), timeZone, now)
  const [, month, day] = request.date.split('-').map(Number)
  const yearly = `${request.minute} ${request.hour} ${day} ${month} *`
  let candidate = nextCronRun(yearly, timeZone, now)
  for (let year = 0; candidate !== undefined && year <= YEARS_AHEAD; year++) {
    const on = dayIn(candidate, timeZone)
    if (on === request.date) return candidate
    if (on > request.date) return undefined
    candidate = nextCronRun(yearly, timeZone, candidate)
  }
  return undefined
}
