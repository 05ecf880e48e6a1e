import { describe, expect, it } from 'bun:test'
import { cronOf, readDuration, readRequest, readTime } from '../src/request.ts'
import { firstDue, knownTimeZone } from '../src/when.ts'

describe('reading /remind', () => {
  it('reads durations, alone or combined, up to a year', () => {
    expect(readDuration('2h')).toBe(7_200_000)
    expect(readDuration('1h30m')).toBe(5_400_000)
    expect(readDuration('45min')).toBe(2_700_000)
    expect(readDuration('2j')).toBe(172_800_000)
    expect(readDuration('1w')).toBe(604_800_000)
    for (const bad of ['2', 'h', '2x', '0m', '400d', '2h-']) expect(readDuration(bad)).toBeUndefined()
  })

  it('reads times of day in both notations', () => {
    expect(readTime('9:00')).toEqual({ hour: 9, minute: 0 })
    expect(readTime('21:05')).toEqual({ hour: 21, minute: 5 })
    expect(readTime('9h')).toEqual({ hour: 9, minute: 0 })
    expect(readTime('9h30')).toEqual({ hour: 9, minute: 30 })
    for (const bad of ['24:00', '9:60', '9', '9:5', 'noon']) expect(readTime(bad)).toBeUndefined()
  })

  it('reads each form, in English and French, keeping the text as typed', () => {
    expect(readRequest('in 2h take the  bread out')).toEqual({
      ok: true,
      value: { kind: 'in', ms: 7_200_000, text: 'take the bread out' },
    })
    expect(readRequest('at 9:00 every monday stand-up')).toEqual({
      ok: true,
      value: { kind: 'at', hour: 9, minute: 0, repeat: { kind: 'weekly', days: [1] }, text: 'stand-up' },
    })
    expect(readRequest('à 18h30 chaque vendredi,lundi sortir')).toEqual({
      ok: true,
      value: { kind: 'at', hour: 18, minute: 30, repeat: { kind: 'weekly', days: [1, 5] }, text: 'sortir' },
    })
    expect(readRequest('at 7:15 every weekday pills')).toMatchObject({
      value: { repeat: { kind: 'weekdays' } },
    })
    expect(readRequest('dans 10m thé')).toMatchObject({ value: { kind: 'in', ms: 600_000 } })
    expect(readRequest('at 20:00 2026-12-24 call grandma')).toMatchObject({
      value: { kind: 'at', date: '2026-12-24', text: 'call grandma' },
    })
  })

  it('names what is wrong with a request', () => {
    const problems = Object.fromEntries(
      [
        'tomorrow buy milk',
        'in soon buy milk',
        'at noon lunch',
        'at 9:00 2026-02-30 x',
        'at 9:00 every fortnight x',
        'in 2h',
        `in 2h ${'x'.repeat(501)}`,
        'at 9:00 2026-12-24 every monday x',
      ].map((request) => {
        const read = readRequest(request)
        return [request.slice(0, 40), read.ok ? 'ok' : read.problem]
      }),
    )
    expect(Object.values(problems)).toEqual([
      'form',
      'duration',
      'time',
      'date',
      'days',
      'text',
      'text',
      'dateAndRepeat',
    ])
  })

  it('writes the cron expression of a repeat', () => {
    expect(cronOf(9, 0, { kind: 'weekly', days: [1, 4] })).toBe('0 9 * * 1,4')
    expect(cronOf(7, 15, { kind: 'weekdays' })).toBe('15 7 * * 1-5')
    expect(cronOf(22, 30, { kind: 'daily' })).toBe('30 22 * * *')
  })
})

describe('when a one-shot falls due', () => {
  const now = new Date('2026-11-30T10:00:00Z')
  const due = (request: string, zone: string) => {
    const read = readRequest(request)
    if (!read.ok) throw new Error(read.problem)
    return firstDue(read.value, zone, now)?.toISOString()
  }

  it('is the next such time in the reader’s zone, today or tomorrow', () => {
    expect(due('at 9:00 x', 'Europe/Paris')).toBe('2026-12-01T08:00:00.000Z')
    expect(due('at 12:30 x', 'Europe/Paris')).toBe('2026-11-30T11:30:00.000Z')
    expect(due('at 9:00 x', 'America/New_York')).toBe('2026-11-30T14:00:00.000Z')
    expect(due('in 90m x', 'Asia/Tokyo')).toBe('2026-11-30T11:30:00.000Z')
  })

  it('keeps a dated time on its day across daylight saving, and refuses one past', () => {
    expect(due('at 9:00 2027-07-14 x', 'Europe/Paris')).toBe('2027-07-14T07:00:00.000Z')
    expect(due('at 9:00 2027-01-14 x', 'Europe/Paris')).toBe('2027-01-14T08:00:00.000Z')
    expect(due('at 9:00 2026-11-29 x', 'Europe/Paris')).toBeUndefined()
  })

  it('knows IANA zones and nothing else', () => {
    expect(knownTimeZone('Europe/Paris')).toBe('Europe/Paris')
    expect(knownTimeZone('UTC')).toBe('UTC')
    for (const bad of ['Mars/Olympus', 'Europe/Paris; DROP', '', '+02:00'])
      expect(knownTimeZone(bad)).toBeUndefined()
  })
})
