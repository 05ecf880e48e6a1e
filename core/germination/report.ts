import type { PluginKind, PluginState } from '@mycelo/septum'
import type { Germination } from './ports.ts'

/** One line of the germination report an operator reads. */
export interface ReportLine {
  readonly name: string
  readonly kind: PluginKind | undefined
  readonly state: PluginState
  readonly reason?: string
  readonly dir: string
}

/** Every spore with its kind and state, and the reason when it is not live; sorted by name. */
export function report(germination: Germination): ReportLine[] {
  return [...germination.spores]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ name, kind, state, reason, dir }) =>
      reason === undefined ? { name, kind, state, dir } : { name, kind, state, reason, dir },
    )
}
