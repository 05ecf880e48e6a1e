import {
  checkCron,
  checkOnceTime,
  checkScheduleOptions,
  nextCronRun,
  type ScheduleEntry,
  ScheduleError,
  type ScheduleHandler,
  type ScheduleOptions,
  type SporeSchedule,
} from '@mycelo/septum'
import { deleteSchedule, listSchedules, type ScheduleRow, scheduleOf, upsertSchedule } from './rows.ts'
import type { Attachment, Scheduler } from './scheduler.ts'

/**
 * One lifetime of one spore's schedules: what `ctx.schedule` is. Rows are the spore's for good;
 * the handlers attached through this object go when `dispose` is called (stop, reload).
 */
export class SporeScheduleView implements SporeSchedule {
  readonly #scheduler: Scheduler
  readonly #attachment: Attachment
  readonly #timeZone: string
  #disposed = false

  constructor(options: { scheduler: Scheduler; spore: string; timeZone: string }) {
    this.#scheduler = options.scheduler
    this.#timeZone = options.timeZone
    this.#attachment = options.scheduler.attach(options.spore)
  }

  get #spore(): string {
    return this.#attachment.spore
  }

  async cron(expression: string, options: ScheduleOptions, handler: ScheduleHandler): Promise<ScheduleEntry> {
    const checked = checkScheduleOptions(options, this.#timeZone)
    checkCron(expression, checked.timeZone, checked.id)
    this.#refuseHandler(handler, checked.id)
    const store = this.#scheduler.store
    const before = scheduleOf(store, this.#spore, checked.id)
    // Declared again with the same timing (every start does): its pending time stays, so a run
    // missed while the bot was down is still seen as missed.
    const same = before?.cron === expression && before.timeZone === checked.timeZone && before.nextAt !== null
    const now = new Date(this.#scheduler.clock.now())
    const nextAt = same ? before.nextAt : (nextCronRun(expression, checked.timeZone, now)?.getTime() ?? null)
    const row = upsertSchedule(store, {
      spore: this.#spore,
      id: checked.id,
      cron: expression,
      at: null,
      timeZone: checked.timeZone,
      missedPolicy: checked.missed,
      data: JSON.stringify(checked.data),
      nextAt,
    })
    return this.#attach(checked.id, handler, row)
  }

  async once(at: Date | string, options: ScheduleOptions, handler: ScheduleHandler): Promise<ScheduleEntry> {
    const checked = checkScheduleOptions(options, this.#timeZone)
    const time = checkOnceTime(at, new Date(this.#scheduler.clock.now()), checked.id).getTime()
    this.#refuseHandler(handler, checked.id)
    const row = upsertSchedule(this.#scheduler.store, {
      spore: this.#spore,
      id: checked.id,
      cron: null,
      at: time,
      timeZone: checked.timeZone,
      missedPolicy: checked.missed,
      data: JSON.stringify(checked.data),
      nextAt: time,
    })
    return this.#attach(checked.id, handler, row)
  }

  handle(idPrefix: string, handler: ScheduleHandler): void {
    if (typeof idPrefix !== 'string')
      throw new ScheduleError('schedule.handle: the id prefix must be a string')
    this.#refuseHandler(handler, `${idPrefix}…`)
    if (this.#disposed) return
    this.#attachment.prefixes.push([idPrefix, handler])
    this.#scheduler.changed(this.#spore)
  }

  async cancel(id: string): Promise<boolean> {
    this.#attachment.ids.delete(id)
    const removed = deleteSchedule(this.#scheduler.store, this.#spore, id)
    this.#scheduler.changed(this.#spore)
    return removed
  }

  async list(idPrefix = ''): Promise<readonly ScheduleEntry[]> {
    if (typeof idPrefix !== 'string') throw new ScheduleError('schedule.list: the id prefix must be a string')
    return listSchedules(this.#scheduler.store, this.#spore, idPrefix).map(entryOf)
  }

  /** Detaches this lifetime's handlers; the rows stay for the spore's next start. */
  dispose(): void {
    this.#disposed = true
    this.#scheduler.detach(this.#spore, this.#attachment)
  }

  #attach(id: string, handler: ScheduleHandler, row: ScheduleRow): ScheduleEntry {
    // A stopped lifetime keeps the row it wrote, but must not run anything.
    if (!this.#disposed) this.#attachment.ids.set(id, handler)
    this.#scheduler.changed(this.#spore, row.nextAt)
    return entryOf(row)
  }

  #refuseHandler(handler: unknown, id: string): void {
    if (typeof handler !== 'function')
      throw new ScheduleError(`schedule "${id}": the handler must be a function`)
  }
}

export function entryOf(row: ScheduleRow): ScheduleEntry {
  let data: unknown = null
  try {
    data = JSON.parse(row.data)
  } catch {
    // Left null: only a hand-edited row is not JSON.
  }
  return {
    id: row.id,
    ...(row.cron === null ? {} : { cron: row.cron }),
    timeZone: row.timeZone,
    ...(row.nextAt === null ? {} : { nextAt: new Date(row.nextAt).toISOString() }),
    missed: row.missedPolicy,
    data,
    ...(row.lastRunAt === null ? {} : { lastRunAt: new Date(row.lastRunAt).toISOString() }),
    ...(row.lastError === null ? {} : { lastError: row.lastError }),
  }
}
