/**
 * Checks a plugin author runs against their own implementation. Each answers a list of failures,
 * empty when the plugin conforms, so it fits any test runner; none of them rejects.
 */
export { enzymeChecks } from './enzyme.ts'
export { hyphaChecks } from './hypha.ts'
export { inhibitorChecks } from './inhibitor.ts'
export { type ManualSchedule, type ManualScheduleOptions, manualSchedule } from './manual-schedule.ts'
export { type MemoryStorage, type MemoryStorageOptions, memoryStorage } from './memory-storage.ts'
export type {
  EnzymeCheckOptions,
  HyphaCheckOptions,
  InhibitorCheckOptions,
  InhibitorExpectation,
  RhizaCheckOptions,
  SporeCheckOptions,
} from './options.ts'
export { rhizaChecks } from './rhiza.ts'
