export { ScheduleError } from './schedule-error.ts'
export {
  type CheckedOptions,
  checkCron,
  checkOnceTime,
  checkScheduleOptions,
  checkTimeZone,
  MAX_SCHEDULE_ID_LENGTH,
  nextCronRun,
} from './timing.ts'
