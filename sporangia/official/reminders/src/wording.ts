import type { Translate } from '@mycelo/septum'
import type { Repeat, Weekday } from './request.ts'

/** A due time in the reader's language and zone: "Mon, Dec 1, 09:00". */
export function whenText(at: Date, locale: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at)
}

/** A wall-clock time in the reader's language ("09:00", "9:00 AM"). */
export function clockText(hour: number, minute: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' }).format(
    new Date(Date.UTC(2026, 0, 1, hour, minute)),
  )
}

/** 2026-11-29 was a Sunday: day `n` of the week is `n` days later. */
function dayName(day: Weekday, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'long' }).format(
    new Date(Date.UTC(2026, 10, 29 + day)),
  )
}

export function repeatText(repeat: Repeat, locale: string, t: Translate): string {
  if (repeat.kind === 'daily') return t('every.daily', {}, locale)
  if (repeat.kind === 'weekdays') return t('every.weekdays', {}, locale)
  const days = new Intl.ListFormat(locale, { type: 'conjunction' }).format(
    repeat.days.map((day) => dayName(day, locale)),
  )
  return t('every.weekly', { days }, locale)
}

/** The command as the reader typed it, for usage lines. */
export function typedCommand(text: string, fallback: string): string {
  return text.trimStart().split(/\s/, 1)[0] || fallback
}
