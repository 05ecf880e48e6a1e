import { constantReason } from '../i18n/reason-words.ts'
import type { ManifestReading } from './manifest-reading.ts'
import type { PluginStorePort } from './ports.ts'

/** Shown for a spore found after the first start: nothing of it runs until an operator says so. */
export const NEW_SPORE_REASON = constantReason('newSpore', 'new: enable it to start it')
/** Shown for a disabled install row that carries no reason of its own. */
export const DISABLED_REASON = constantReason('disabled', 'disabled by an operator')
/** Shown for an enforcing inhibitor whose folder is gone while its install row is still enabled. */
export const MISSING_GUARD_REASON = constantReason(
  'missingGuard',
  'its folder is missing from every spores folder; it was an enforcing inhibitor, so all traffic is refused until it is restored or disabled',
)

/**
 * Before any module is imported, in one transaction: a row for every discovered spore, so that an
 * interrupted start leaves none unrecorded. On a fresh store the rows are left unsettled, and the
 * first start's decision is taken once each spore is checked; a spore found later is new and off.
 */
export function recordDiscovered(store: PluginStorePort, readings: readonly ManifestReading[]): void {
  const firstStart = store.isFresh()
  const newcomer = firstStart
    ? { enabled: true, reason: null, settled: false }
    : { enabled: false, reason: NEW_SPORE_REASON, settled: true }
  const spores = readings.map((reading) => ({
    name: reading.name,
    kind: reading.manifest?.kind,
    enforcing: reading.manifest !== undefined && reading.enforcing,
  }))
  store.recordDiscovered(spores, newcomer)
}

/** How the install row leaves a spore before any of its code runs. */
export type InstallGate =
  | { readonly open: true; readonly firstStart: boolean }
  | { readonly open: false; readonly reason: string }

/** Whether the row lets a spore go on to its checks, and whether a first start still decides it. */
export function installGate(store: PluginStorePort, name: string): InstallGate {
  const row = store.installOf(name)
  if (row === undefined) return { open: false, reason: NEW_SPORE_REASON }
  if (store.memoryOf(name)?.settled === false) return { open: true, firstStart: true }
  return row.enabled
    ? { open: true, firstStart: false }
    : { open: false, reason: row.reason ?? DISABLED_REASON }
}

export interface FirstStartOptions {
  readonly store: PluginStorePort
  readonly name: string
  /** Why the spore failed its checks, or undefined when it validated. */
  readonly reason: string | undefined
  readonly enforcing: boolean
}

/**
 * The first start enables every spore that validated and records the others disabled with their
 * reason. An enforcing inhibitor is always recorded enabled: disabling it would silently open the
 * channel it guards, where staying dormant makes the admission chain refuse all traffic.
 * Answers whether the spore was recorded enabled.
 */
export function recordFirstStart(options: FirstStartOptions): boolean {
  const enabled = options.reason === undefined || options.enforcing
  options.store.recordInstall(options.name, { enabled, reason: enabled ? null : (options.reason ?? null) })
  return enabled
}
