import { describe, expect, it } from 'bun:test'
import { enzymeChecks } from '@mycelo/septum/conformance'
import module from '../src/index.ts'
import { bench, files } from './harness.ts'

const HOUR = 3_600_000
/** The real clock: the handlers read it, and the manual schedule starts from it. */
const now = () => new Date()
const at = (date: Date, locale: string, timeZone: string) =>
  new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(date)

describe('reminders enzyme', () => {
  it('conforms to the Enzyme contract, catalogues included', async () => {
    const made = await bench(now())
    const failures = await enzymeChecks({
      name: 'reminders',
      manifest: files.manifest,
      module,
      catalogs: files.catalogs,
      config: { timeZone: 'Europe/Paris' },
      invalidConfig: { timeZone: 'Mars/Olympus' },
      context: () => made.context(),
    })
    expect(failures).toEqual([])
  })

  it('has the same keys in English and French', () => {
    expect(files.keysOf('fr')).toEqual(files.keysOf('en'))
  })

  it('reminds once, where it was asked, then forgets it', async () => {
    const start = now()
    const b = await bench(start)
    const due = new Date(start.getTime() + 2 * HOUR)
    expect(await b.say('/remind in 2h take the bread out')).toBe(
      `I will remind you on ${at(due, 'en', 'UTC')} (UTC): take the bread out\nTimes are in UTC; set your own with /timezone, such as /timezone Europe/Paris.`,
    )
    await b.schedule.advance(HOUR)
    expect(b.pushed).toEqual([])
    await b.schedule.advance(HOUR + 1000)
    expect(b.pushed).toEqual([
      { target: { channel: 'console', conversationId: 'dm-p-alice' }, text: '⏰ take the bread out' },
    ])
    expect(await b.say('/reminders')).toBe('You have no reminders.')
    expect(Object.keys(b.storage.snapshot())).toEqual(['seq:p-alice'])
  })

  it('repeats every chosen day at the reader’s time, in the reader’s zone and language', async () => {
    const b = await bench(now())
    expect(await b.say('/timezone Europe/Paris', { locale: 'fr' })).toStartWith(
      'Vos rappels utilisent maintenant Europe/Paris, où il est ',
    )
    expect(await b.say('/remind à 9h chaque lundi,jeudi réunion', { locale: 'fr' })).toBe(
      'Je vous le rappellerai chaque lundi et jeudi à 09:00 (Europe/Paris) : réunion',
    )
    const [entry] = await b.schedule.list()
    expect(entry).toMatchObject({ cron: '0 9 * * 1,4', timeZone: 'Europe/Paris' })
    const next = new Date(entry!.nextAt!)
    expect(
      new Intl.DateTimeFormat('en', { timeZone: 'Europe/Paris', hour: 'numeric', hourCycle: 'h23' }).format(
        next,
      ),
    ).toBe('09')
    // Any seven days hold one Monday and one Thursday.
    await b.schedule.advance(7 * 24 * HOUR)
    expect(b.pushed.map((push) => push.text)).toEqual(['⏰ réunion', '⏰ réunion'])
    expect(await b.say('/reminders', { locale: 'fr' })).toMatch(
      /^Votre rappel :\n1\. .+ — réunion \(chaque lundi et jeudi\)$/,
    )
  })

  it('lists soonest first, forgets by number, and refuses a number it does not have', async () => {
    const b = await bench(now())
    await b.say('/remind in 3d later')
    await b.say('/remind in 1h sooner')
    // Two hours from now, on the next weekday: always after "sooner" and before "later", whatever the clock says.
    const pillsAt = new Date(Date.now() + 2 * 3_600_000)
    await b.say(
      `/remind at ${pillsAt.getUTCHours()}:${String(pillsAt.getUTCMinutes()).padStart(2, '0')} every weekday pills`,
    )
    const listed = (await b.say('/reminders')).split('\n')
    expect(listed[0]).toBe('Your 3 reminders:')
    expect(listed.slice(1).map((line) => line.replace(/^(\d)\. .* — /, '$1 '))).toEqual([
      '1 sooner',
      '2 pills (every weekday)',
      '3 later',
    ])
    expect(await b.say('/forget 1')).toBe('Forgotten: sooner')
    expect(await b.say('/forget 9')).toBe('There is no reminder 9: you have 2.')
    expect(await b.say('/forget first')).toBe('Usage: /forget <number>, as /reminders lists it')
    expect((await b.schedule.list()).map((entry) => entry.id).sort()).toEqual([
      'reminder:p-alice:1',
      'reminder:p-alice:3',
    ])
  })

  it('keeps each person’s reminders their own', async () => {
    const b = await bench(now())
    await b.say('/remind in 1h mine', { principal: 'p-alice' })
    expect(await b.say('/reminders', { principal: 'p-bob' })).toBe('You have no reminders.')
    expect(await b.say('/forget 1', { principal: 'p-bob' })).toBe('There is no reminder 1: you have none.')
  })

  it('moves repeating reminders to a new zone, keeping their wall-clock time', async () => {
    const b = await bench(now())
    await b.say('/remind at 9:00 every day coffee')
    await b.say('/remind in 5h once')
    expect(await b.say('/timezone America/New_York')).toEndWith(' One repeating reminder follows you there.')
    const daily = (await b.schedule.list()).find((entry) => entry.cron !== undefined)
    expect(daily).toMatchObject({ cron: '0 9 * * *', timeZone: 'America/New_York' })
    expect(await b.say('/timezone')).toBe('Your reminders use America/New_York.')
  })

  it('answers in the reader’s words for every refusal', async () => {
    const b = await bench(now(), { maxPerPerson: 1 })
    expect(await b.say('/timezone')).toBe(
      "Your reminders use UTC, the bot's default; set your own with /timezone, such as /timezone Europe/Paris.",
    )
    expect(await b.say('/timezone Mars/Olympus')).toBe(
      'Mars/Olympus is not a time zone I know; use an IANA name such as Europe/Paris or America/New_York.',
    )
    expect(await b.say('/remind at 9:00 2020-01-01 too late')).toBe('That time is already past.')
    expect((await b.say('/remind tomorrow milk', { locale: 'fr' })).split('\n')[0]).toBe(
      'Un rappel commence par dans ou à (ou in, at).',
    )
    expect(await b.say('/remind')).toStartWith('Usage: /remind in <duration> <text>')
    await b.say('/remind in 1h one')
    expect(await b.say('/remind in 2h two')).toBe('You already have 1 reminders; /forget one first.')
  })
})
