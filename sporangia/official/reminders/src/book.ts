// Reminders as they are kept: one storage entry each (what to say, where, in which language and
// zone), and one schedule each under the same id, which the core persists and fires.
import type { OutcomeOf, PushTarget, ScheduleHandler, SporeSchedule, SporeStorage } from '@mycelo/septum'
import { cronOf, type ReminderRequest, type Repeat } from './request.ts'
import { firstDue } from './when.ts'

export interface Reminder {
  /** Its storage key and its schedule id: `reminder:<principal>:<n>`. */
  readonly id: string
  readonly principal: string
  readonly text: string
  readonly target: PushTarget
  /** The language it was asked in, and is said in. */
  readonly locale: string
  readonly timeZone: string
  /** For a repeating reminder: its time and days, kept to follow the reader to another zone. */
  readonly repeating?: { readonly hour: number; readonly minute: number; readonly repeat: Repeat }
}

export interface Listed {
  readonly reminder: Reminder
  readonly nextAt?: Date
}

export interface Asked {
  readonly principal: string
  readonly request: ReminderRequest
  readonly target: PushTarget
  readonly locale: string
  readonly timeZone: string
  readonly now: Date
}

export interface BookOptions {
  readonly storage: SporeStorage
  readonly schedule: SporeSchedule
  readonly onDue: ScheduleHandler
  readonly maxPerPerson: number
}

const PREFIX = 'reminder:'
const refusal = (key: string, params: Record<string, unknown> = {}) => ({
  ok: false as const,
  refusal: { domain: 'reminders', key, params },
})

export const zoneKey = (principal: string) => `zone:${principal}`

export class ReminderBook {
  readonly #options: BookOptions
  constructor(options: BookOptions) {
    this.#options = options
  }

  async add(asked: Asked): Promise<OutcomeOf<Listed>> {
    const { storage, maxPerPerson } = this.#options
    const { request, timeZone, now } = asked
    const due =
      request.kind === 'at' && request.repeat !== undefined ? undefined : firstDue(request, timeZone, now)
    if (due === undefined && !(request.kind === 'at' && request.repeat !== undefined))
      return refusal('refusal.past')
    const repeating =
      request.kind === 'at' && request.repeat !== undefined
        ? { hour: request.hour, minute: request.minute, repeat: request.repeat }
        : undefined
    // The count, the number and the entry in one transaction: two asks at once get two numbers.
    const reminder = await storage.transaction((tx) => {
      if (tx.list(`${PREFIX}${asked.principal}:`).length >= maxPerPerson) return undefined
      const seq = (tx.get<number>(`seq:${asked.principal}`) ?? 0) + 1
      tx.set(`seq:${asked.principal}`, seq)
      const made: Reminder = {
        id: `${PREFIX}${asked.principal}:${seq}`,
        principal: asked.principal,
        text: request.text,
        target: asked.target,
        locale: asked.locale,
        timeZone,
        ...(repeating !== undefined && { repeating }),
      }
      tx.set(made.id, made)
      return made
    })
    if (reminder === undefined) return refusal('refusal.tooMany', { max: maxPerPerson })
    try {
      const entry = await this.#schedule(reminder, due)
      return { ok: true, value: { reminder, ...(entry !== undefined && { nextAt: entry }) } }
    } catch (error) {
      await storage.delete(reminder.id)
      throw error
    }
  }

  /** The reader's reminders, soonest first. */
  async list(principal: string): Promise<Listed[]> {
    const { storage, schedule } = this.#options
    const entries = await storage.list<Reminder>(`${PREFIX}${principal}:`)
    const schedules = new Map(
      (await schedule.list(`${PREFIX}${principal}:`)).map((entry) => [entry.id, entry]),
    )
    const listed = entries.map(({ value }) => {
      const nextAt = schedules.get(value.id)?.nextAt
      return { reminder: value, ...(nextAt !== undefined && { nextAt: new Date(nextAt) }) }
    })
    const time = (item: Listed) => item.nextAt?.getTime() ?? Number.POSITIVE_INFINITY
    return listed.sort((a, b) => time(a) - time(b) || a.reminder.id.localeCompare(b.reminder.id))
  }

  /** Forgets the `n`th of the reader's list (1-based, as /reminders numbers it). */
  async forget(principal: string, n: number): Promise<OutcomeOf<Reminder>> {
    const listed = await this.list(principal)
    const chosen = listed[n - 1]
    if (chosen === undefined) return refusal('refusal.noSuch', { n, count: listed.length })
    await this.#options.schedule.cancel(chosen.reminder.id)
    await this.#options.storage.delete(chosen.reminder.id)
    return { ok: true, value: chosen.reminder }
  }

  /** Moves the reader's repeating reminders to a new zone: 9:00 stays 9:00 where they now are. */
  async rezone(principal: string, timeZone: string): Promise<number> {
    const { storage } = this.#options
    await storage.set(zoneKey(principal), timeZone)
    let moved = 0
    for (const { value } of await storage.list<Reminder>(`${PREFIX}${principal}:`)) {
      if (value.repeating === undefined || value.timeZone === timeZone) continue
      const rezoned = { ...value, timeZone }
      await storage.set(value.id, rezoned)
      await this.#schedule(rezoned, undefined)
      moved++
    }
    return moved
  }

  /** The reminder a run is for, or undefined if it was forgotten meanwhile. */
  reminderOf(id: string): Promise<Reminder | undefined> {
    return this.#options.storage.get<Reminder>(id)
  }

  /** Called after a one-shot was said: its entry goes with its schedule. */
  async done(reminder: Reminder): Promise<void> {
    if (reminder.repeating === undefined) await this.#options.storage.delete(reminder.id)
  }

  async #schedule(reminder: Reminder, due: Date | undefined): Promise<Date | undefined> {
    const { schedule, onDue } = this.#options
    const options = { id: reminder.id, timeZone: reminder.timeZone, data: { id: reminder.id } }
    if (reminder.repeating !== undefined) {
      const { hour, minute, repeat } = reminder.repeating
      // A repeating reminder missed while the bot was down is skipped: the next one comes anyway.
      const entry = await schedule.cron(cronOf(hour, minute, repeat), { ...options, missed: 'skip' }, onDue)
      return entry.nextAt === undefined ? undefined : new Date(entry.nextAt)
    }
    // A one-shot missed while the bot was down is said late rather than never.
    await schedule.once(due!, { ...options, missed: 'run-once' }, onDue)
    return due
  }
}
