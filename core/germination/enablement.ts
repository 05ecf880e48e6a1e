import type { PluginStorePort } from './ports.ts'

/** Shown for a spore found after the first start: nothing of it runs until an operator says so. */
export const NEW_SPORE_REASON = 'new: enable it to start it'
/** Shown for a disabled install row that carries no reason of its own. */
export const DISABLED_REASON = 'disabled by an operator'

/**
 * Before any of a spore's code runs: the reason its install row keeps it off, or undefined to go on.
 * A spore with no row on a store that already knows others is new and is recorded disabled. On a
 * fresh store nothing is recorded yet: the first start decides once the spore is checked.
 */
export function installGate(store: PluginStorePort, name: string, fresh: boolean): string | undefined {
  if (fresh) return undefined
  const row = store.installOf(name)
  if (row === undefined) {
    store.recordInstall(name, { enabled: false, reason: NEW_SPORE_REASON })
    return NEW_SPORE_REASON
  }
  return row.enabled ? undefined : (row.reason ?? DISABLED_REASON)
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
