export { type SporeContextOptions, sporeContext } from './context.ts'
export type { GerminationWarning } from './discovery.ts'
export { DISABLED_REASON, NEW_SPORE_REASON } from './enablement.ts'
export { type GerminateOptions, germinate, RESERVED_NAMES } from './germinate.ts'
export { startAll } from './lifecycle.ts'
export { ENTRY_CANDIDATES } from './module-loading.ts'
export type {
  ContextFactory,
  DiscoveredSpore,
  GerminatedSpore,
  Germination,
  InstallMemory,
  InstallState,
  PluginStorePort,
} from './ports.ts'
export { StartupRefusal } from './refusal.ts'
export { type ReportLine, report } from './report.ts'
export { type StopOptions, stopAll } from './shutdown.ts'
