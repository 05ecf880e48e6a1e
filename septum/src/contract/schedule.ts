/** What a missed run does when the bot was down at its time: run once at start, or skip it. */
export type MissedRunPolicy = 'run-once' | 'skip'

export interface ScheduleOptions {
  /** Stable within the spore: re-declaring the same id replaces the schedule, keeping its history. */
  readonly id: string
  /** An IANA time zone; the configured default (or UTC) when omitted. */
  readonly timeZone?: string
  /** Default `skip`: a missed time is passed over (a missed one-shot is dropped). */
  readonly missed?: MissedRunPolicy
  /** Small JSON data handed to every run, persisted with the schedule. */
  readonly data?: unknown
}

/** One run's facts. */
export interface ScheduledRun {
  readonly id: string
  /** When it was due (ISO 8601), which may be earlier than now for a missed run. */
  readonly dueAt: string
  readonly missed: boolean
  readonly data: unknown
  /** Aborted when the run passes the handler deadline or the spore stops. */
  readonly signal: AbortSignal
}

export type ScheduleHandler = (run: ScheduledRun) => void | Promise<void>

export interface ScheduleEntry {
  readonly id: string
  /** A cron expression, or absent for a one-shot. */
  readonly cron?: string
  readonly timeZone: string
  /** The next due time (ISO 8601); undefined for a one-shot whose run failed (it stays to be read). */
  readonly nextAt?: string
  readonly missed: MissedRunPolicy
  readonly data: unknown
  /** When it last ran (ISO 8601), and the error of that run when it failed. */
  readonly lastRunAt?: string
  readonly lastError?: string
}

/**
 * septum 1.1: persisted schedules that survive restarts. Schedules belong to the spore's lifetime:
 * callbacks are attached at start and detached at stop or reload; the rows stay.
 */
export interface SporeSchedule {
  /** A repeating schedule from a 5- or 6-field cron expression. */
  cron(expression: string, options: ScheduleOptions, handler: ScheduleHandler): Promise<ScheduleEntry>
  /** A one-shot at `at` (a Date or ISO 8601 time with its offset); removed once it has run well. */
  once(at: Date | string, options: ScheduleOptions, handler: ScheduleHandler): Promise<ScheduleEntry>
  /**
   * Attaches a handler to schedules persisted earlier (e.g. one-shots a user asked for), by id
   * prefix: an exact cron/once handler comes first, then the longest matching prefix.
   */
  handle(idPrefix: string, handler: ScheduleHandler): void
  cancel(id: string): Promise<boolean>
  list(idPrefix?: string): Promise<readonly ScheduleEntry[]>
}
