import { type Logger, nextCronRun, type ScheduleHandler } from '@mycelo/septum'
import type { Store } from '../store/open.ts'
import { DeadlineExceeded, raceDeadline } from '../supervision/deadline.ts'
import { type Clock, systemClock } from './clock.ts'
import { finishOneShot, nearestSchedules, type ScheduleRow, updateSchedule } from './rows.ts'

export interface SchedulerOptions {
  readonly store: Store
  readonly logger: Logger
  /** How long one run may take: the handler deadline. */
  readonly deadlineMs: number
  /** Whether a spore is started and may be called now; a due run waits for it otherwise. */
  readonly runnable: (spore: string) => boolean
  readonly clock?: Clock
}

/** The handlers one lifetime of a spore attached; `since` tells a missed run from a due one. */
export interface Attachment {
  readonly spore: string
  readonly since: number
  readonly ids: Map<string, ScheduleHandler>
  readonly prefixes: [string, ScheduleHandler][]
  /** Aborted when this lifetime ends: a run still going learns its spore stopped. */
  readonly ending: AbortController
}

const keyOf = (spore: string, id: string) => `${spore}\u0000${id}`
// Due rows taken per wake-up; more simply wait for the next turn of the timer.
const BATCH = 100

/**
 * Runs every spore's persisted schedules with one timer, set for the nearest due time among the
 * spores that have handlers attached. A run is under the handler deadline, never overlaps itself,
 * and its error is logged with the spore's name and kept on the row.
 */
export class Scheduler {
  readonly #options: SchedulerOptions
  readonly clock: Clock
  readonly #attached = new Map<string, Attachment>()
  /** Due rows with no handler, or whose spore cannot run now: left until something changes. */
  readonly #parked = new Set<string>()
  readonly #running = new Set<string>()
  readonly #inFlight = new Set<Promise<void>>()
  #timer: unknown
  #timerAt: number | undefined
  #stopped = false

  constructor(options: SchedulerOptions) {
    this.#options = options
    this.clock = options.clock ?? systemClock
  }

  get store(): Store {
    return this.#options.store
  }

  /** Starts a spore's lifetime: whatever it attached before is dropped. */
  attach(spore: string): Attachment {
    this.detach(spore)
    const attachment: Attachment = {
      spore,
      since: this.clock.now(),
      ids: new Map(),
      prefixes: [],
      ending: new AbortController(),
    }
    this.#attached.set(spore, attachment)
    return attachment
  }

  /** Ends a spore's lifetime (stop, reload, uninstall): its handlers go, its rows stay. */
  detach(spore: string, attachment?: Attachment): void {
    const current = this.#attached.get(spore)
    if (current === undefined || (attachment !== undefined && attachment !== current)) return
    this.#attached.delete(spore)
    current.ending.abort(new Error(`spore "${spore}" stopped`))
    this.#unpark(spore)
    this.#arm()
  }

  /**
   * Something about a spore's schedules changed: its parked rows are looked at again. `nextAt`,
   * when the change only added or moved one row to that time, spares the lookup if the timer is
   * already set sooner (10,000 reminders cost 10,000 inserts, not 10,000 queries).
   */
  changed(spore: string, nextAt?: number | null): void {
    const sooner =
      this.#timer !== undefined && this.#timerAt !== undefined && nextAt != null && this.#timerAt <= nextAt
    if (sooner && !this.#hasParked(spore)) return
    this.#unpark(spore)
    this.#arm()
  }

  #hasParked(spore: string): boolean {
    if (this.#parked.size === 0) return false
    const lead = keyOf(spore, '')
    for (const key of this.#parked) if (key.startsWith(lead)) return true
    return false
  }

  /** Looks at every parked row again, e.g. once start-up or a reload has finished. */
  wake(): void {
    this.#parked.clear()
    this.#arm()
  }

  /** No more runs: called at shut-down, before the spores stop; runs still going are told to end. */
  stop(): void {
    this.#stopped = true
    this.#clear()
    for (const attachment of this.#attached.values())
      attachment.ending.abort(new Error('the bot is stopping'))
  }

  /** Settles once every run started so far has settled. */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight])
  }

  #unpark(spore: string): void {
    const lead = keyOf(spore, '')
    for (const key of this.#parked) if (key.startsWith(lead)) this.#parked.delete(key)
  }

  #clear(): void {
    if (this.#timer !== undefined) this.clock.clearTimer(this.#timer)
    this.#timer = undefined
    this.#timerAt = undefined
  }

  /** Sets the one timer for the nearest due row not parked. */
  #arm(): void {
    if (this.#stopped) return
    const rows = nearestSchedules(this.store, [...this.#attached.keys()], this.#parked.size + 1)
    const next = rows.find((row) => !this.#parked.has(keyOf(row.spore, row.id)))
    if (next?.nextAt == null) {
      this.#clear()
      return
    }
    if (this.#timerAt === next.nextAt && this.#timer !== undefined) return
    this.#clear()
    this.#timerAt = next.nextAt
    this.#timer = this.clock.setTimer(next.nextAt - this.clock.now(), () => this.#tick())
  }

  #tick(): void {
    this.#timer = undefined
    this.#timerAt = undefined
    if (this.#stopped) return
    const now = this.clock.now()
    const rows = nearestSchedules(this.store, [...this.#attached.keys()], this.#parked.size + BATCH)
    for (const row of rows) {
      if (row.nextAt == null || row.nextAt > now) break
      if (!this.#parked.has(keyOf(row.spore, row.id))) this.#due(row, now)
    }
    this.#arm()
  }

  /** One due row: moved on at once (so a crash never repeats it), then run unless skipped. */
  #due(row: ScheduleRow, now: number): void {
    const key = keyOf(row.spore, row.id)
    const attachment = this.#attached.get(row.spore)
    const handler = attachment && handlerOf(attachment, row.id)
    if (attachment === undefined || handler === undefined || !this.#options.runnable(row.spore)) {
      this.#parked.add(key)
      return
    }
    const dueAt = row.nextAt!
    const next =
      row.cron === null ? null : (nextCronRun(row.cron, row.timeZone, new Date(now))?.getTime() ?? null)
    updateSchedule(this.store, row, { nextAt: next })
    const log = this.#options.logger.child({ spore: row.spore, schedule: row.id })
    if (this.#running.has(key)) {
      log.warn('schedule skipped a run: its previous run is still going', {
        dueAt: new Date(dueAt).toISOString(),
      })
      return
    }
    const missed = dueAt < attachment.since
    if (missed && row.missedPolicy === 'skip') {
      log.info('schedule skipped a run missed while the spore was not running', {
        dueAt: new Date(dueAt).toISOString(),
      })
      if (row.cron === null) finishOneShot(this.store, row, row.at!)
      return
    }
    this.#running.add(key)
    const running = this.#run({ row, handler, attachment, dueAt, missed, log }).finally(() => {
      this.#running.delete(key)
      this.#inFlight.delete(running)
    })
    this.#inFlight.add(running)
  }

  async #run(run: Run): Promise<void> {
    const { row, handler, attachment, dueAt, missed, log } = run
    const controller = new AbortController()
    const onEnding = () => controller.abort(attachment.ending.signal.reason)
    attachment.ending.signal.addEventListener('abort', onEnding, { once: true })
    const ms = this.#options.deadlineMs
    const startedAt = this.clock.now()
    let data: unknown = null
    try {
      data = JSON.parse(row.data)
    } catch {
      // A row written by this code is always JSON; a hand-edited one runs with null.
    }
    const call = Promise.resolve().then(() =>
      handler({ id: row.id, dueAt: new Date(dueAt).toISOString(), missed, data, signal: controller.signal }),
    )
    try {
      await raceDeadline(call, {
        step: `schedule "${row.id}"`,
        ms,
        onExpired: (expiry) => controller.abort(expiry),
      })
      updateSchedule(this.store, row, { lastRunAt: startedAt, lastError: null })
      if (row.cron === null) finishOneShot(this.store, row, row.at!)
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error)
      log.error(
        error instanceof DeadlineExceeded ? 'schedule run passed its deadline' : 'schedule run failed',
        {
          error: text,
        },
      )
      updateSchedule(this.store, row, { lastRunAt: startedAt, lastError: text })
      // Still settling after its deadline: it is not run again until it has.
      await call.catch(() => undefined)
    } finally {
      attachment.ending.signal.removeEventListener('abort', onEnding)
    }
  }
}

interface Run {
  readonly row: ScheduleRow
  readonly handler: ScheduleHandler
  readonly attachment: Attachment
  readonly dueAt: number
  readonly missed: boolean
  readonly log: Logger
}

function handlerOf(attachment: Attachment, id: string): ScheduleHandler | undefined {
  const exact = attachment.ids.get(id)
  if (exact !== undefined) return exact
  let best: [string, ScheduleHandler] | undefined
  for (const entry of attachment.prefixes) {
    if (id.startsWith(entry[0]) && (best === undefined || entry[0].length > best[0].length)) best = entry
  }
  return best?.[1]
}
