// What `/remind …` asks for, read from its words: pure, so every form is tested without a clock.
// Keywords are read in English and French, whatever the reader's language.

/** Days of the week as cron numbers them: 0 is Sunday. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6

export type Repeat =
  | { readonly kind: 'daily' }
  | { readonly kind: 'weekdays' }
  | { readonly kind: 'weekly'; readonly days: readonly Weekday[] }

export type ReminderRequest =
  | { readonly kind: 'in'; readonly ms: number; readonly text: string }
  | {
      readonly kind: 'at'
      readonly hour: number
      readonly minute: number
      /** A calendar day (`YYYY-MM-DD`) for a one-shot; absent means the next such time. */
      readonly date?: string
      readonly repeat?: Repeat
      readonly text: string
    }

/** Why the words are not a reminder; each names a catalogue key under `problem.`. */
export type RequestProblem = 'form' | 'duration' | 'time' | 'date' | 'days' | 'text' | 'dateAndRepeat'

export type Reading =
  | { readonly ok: true; readonly value: ReminderRequest }
  | { readonly ok: false; readonly problem: RequestProblem }

export const MAX_TEXT = 500
/** The longest `in` a reminder accepts: a year. */
export const MAX_DELAY_MS = 366 * 24 * 60 * 60 * 1000

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  j: 86_400_000,
  w: 604_800_000,
}

const DAYS: Readonly<Record<string, Weekday>> = {
  sunday: 0,
  sun: 0,
  dimanche: 0,
  monday: 1,
  mon: 1,
  lundi: 1,
  tuesday: 2,
  tue: 2,
  mardi: 2,
  wednesday: 3,
  wed: 3,
  mercredi: 3,
  thursday: 4,
  thu: 4,
  jeudi: 4,
  friday: 5,
  fri: 5,
  vendredi: 5,
  saturday: 6,
  sat: 6,
  samedi: 6,
}

const fail = (problem: RequestProblem): Reading => ({ ok: false, problem })

/** `2h`, `1h30m`, `45min`, `3d`, `2j`: the sum of its parts in ms, or undefined. */
export function readDuration(word: string): number | undefined {
  const parts = /^(?:\d+(?:min|[smhdjw]))+$/i.test(word)
    ? word.toLowerCase().match(/\d+(?:min|[smhdjw])/g)
    : null
  if (parts === null) return undefined
  let total = 0
  for (const part of parts) {
    const [, amount, unit] = /^(\d+)(min|[smhdjw])$/.exec(part)!
    total += Number(amount) * UNIT_MS[unit!]!
  }
  return total > 0 && total <= MAX_DELAY_MS ? total : undefined
}

/** `9:00`, `21:05`, `9h`, `9h30`: hours and minutes, or undefined. */
export function readTime(word: string): { hour: number; minute: number } | undefined {
  const match = /^(\d{1,2})(?::(\d{2})|h(\d{2})?)$/i.exec(word)
  if (match === null) return undefined
  const hour = Number(match[1])
  const minute = Number(match[2] ?? match[3] ?? 0)
  return hour <= 23 && minute <= 59 ? { hour, minute } : undefined
}

function readDate(word: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(word)
  if (match === null) return undefined
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  // A day that does not exist (Feb 30) rolls over in Date.UTC: refuse it.
  return date.toISOString().slice(0, 10) === word ? word : undefined
}

function readRepeat(word: string): Repeat | undefined {
  const lower = word.toLowerCase()
  if (['day', 'daily', 'jour'].includes(lower)) return { kind: 'daily' }
  if (['weekday', 'weekdays', 'semaine'].includes(lower)) return { kind: 'weekdays' }
  const days = lower.split(',').map((name) => DAYS[name])
  if (days.some((day) => day === undefined)) return undefined
  const unique = [...new Set(days as Weekday[])].sort()
  return unique.length > 0 ? { kind: 'weekly', days: unique } : undefined
}

/**
 * Reads `in <duration> <text>` or `at <time> [<YYYY-MM-DD>] [every <days>] <text>` (also `dans`,
 * `à`, `chaque`). Words are split on spaces; the text keeps its own spacing.
 */
export function readRequest(request: string): Reading {
  const words = request.trim().split(/\s+/)
  const keyword = words[0]?.toLowerCase()
  const textFrom = (index: number): string | undefined => {
    const text = words.slice(index).join(' ').trim()
    return text === '' || text.length > MAX_TEXT ? undefined : text
  }
  if (keyword === 'in' || keyword === 'dans') {
    const ms = readDuration(words[1] ?? '')
    if (ms === undefined) return fail('duration')
    const text = textFrom(2)
    return text === undefined ? fail('text') : { ok: true, value: { kind: 'in', ms, text } }
  }
  if (keyword === 'at' || keyword === 'à' || keyword === 'a') {
    const time = readTime(words[1] ?? '')
    if (time === undefined) return fail('time')
    let index = 2
    let date: string | undefined
    if (/^\d{4}-/.test(words[index] ?? '')) {
      date = readDate(words[index]!)
      if (date === undefined) return fail('date')
      index++
    }
    let repeat: Repeat | undefined
    const every = words[index]?.toLowerCase()
    if (every === 'every' || every === 'chaque') {
      repeat = readRepeat(words[index + 1] ?? '')
      if (repeat === undefined) return fail('days')
      index += 2
    }
    if (date !== undefined && repeat !== undefined) return fail('dateAndRepeat')
    const text = textFrom(index)
    if (text === undefined) return fail('text')
    return {
      ok: true,
      value: {
        kind: 'at',
        ...time,
        ...(date !== undefined && { date }),
        ...(repeat !== undefined && { repeat }),
        text,
      },
    }
  }
  return fail('form')
}

/** The cron expression of a repeating reminder, or of the daily time a one-shot is the next of. */
export function cronOf(hour: number, minute: number, repeat: Repeat | undefined): string {
  const days =
    repeat === undefined || repeat.kind === 'daily'
      ? '*'
      : repeat.kind === 'weekdays'
        ? '1-5'
        : repeat.days.join(',')
  return `${minute} ${hour} * * ${days}`
}
