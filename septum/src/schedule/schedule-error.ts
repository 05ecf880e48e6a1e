/** septum 1.1: a schedule refused: a bad id, cron expression, time zone, missed policy or time. */
export class ScheduleError extends Error {
  override readonly name = 'ScheduleError'
}
