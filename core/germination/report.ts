import type { PluginKind, PluginState } from '@mycelo/septum'
import { hostKeeper } from '../hosts/keeper.ts'
import type { Germination } from './ports.ts'

/** One line of the germination report an operator reads. */
export interface ReportLine {
  readonly name: string
  readonly kind: PluginKind | undefined
  readonly state: PluginState
  readonly reason?: string
  readonly dir: string
  /** In a worker of its own, or on the bot's thread (see core/hosts). */
  readonly isolation?: 'worker' | 'inline'
}

/**
 * Every spore with its kind and state, and the reason when it is not live; sorted by name.
 * `notLive` names a started channel or system that reaches nothing (the supervisor's word): it
 * reads dormant with that reason, never live.
 */
export function report(
  germination: Germination,
  notLive: (name: string) => string | undefined = () => undefined,
): ReportLine[] {
  return [...germination.spores]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ name, kind, state, reason, dir }) => {
      const isolation = dir === '' ? {} : { isolation: hostKeeper.isolationOf(name, dir) }
      const down = state === 'disabled' ? undefined : notLive(name)
      if (down !== undefined)
        return { name, kind, state: 'dormant' as const, reason: down, dir, ...isolation }
      const line = { name, kind, state, dir, ...isolation }
      return reason === undefined ? line : { ...line, reason }
    })
}
