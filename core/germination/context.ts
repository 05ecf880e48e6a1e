import {
  alternativesOf,
  type Logger,
  MYCELIUM,
  type SporeContext,
  type SporeSchedule,
  type SporeStorage,
} from '@mycelo/septum'
import type { GerminatedSpore, Germination } from './ports.ts'

export interface SporeContextOptions {
  readonly germination: Germination
  /** The core's logger; each spore gets a child scoped to its name. */
  readonly logger: Logger
  /** What `ctx.rhiza('mycelium')` answers for this spore: the surface of its granted scopes. */
  readonly mycelium: (spore: GerminatedSpore) => object
  /** septum 1.1: the spore's storage namespace and its schedules. */
  readonly storage: (spore: GerminatedSpore) => SporeStorage
  readonly schedule: (spore: GerminatedSpore) => SporeSchedule
}

/**
 * The members every kind's context shares: the validated settings, a logger scoped to the spore,
 * access to the rhizas its manifest requires, its storage and schedules. The core adds the
 * kind-specific members.
 */
export function sporeContext(spore: GerminatedSpore, options: SporeContextOptions): SporeContext {
  const { germination } = options
  const liveEdge = (name: string) =>
    spore.edges.includes(name) && germination.byName.get(name)?.state === 'live'
  return {
    config: spore.config,
    logger: options.logger.child({ spore: spore.name }),
    rhiza<T = unknown>(name: string): T {
      // The core is always there; an ungranted scope's methods are simply absent from its surface.
      if (name === MYCELIUM) return options.mycelium(spore) as T
      if (!declares(spore, name)) {
        throw new Error(`spore "${spore.name}" does not require rhiza "${name}"; declare it under requires`)
      }
      if (!spore.edges.includes(name)) {
        throw new Error(
          `rhiza "${name}" is not installed; ask ctx.has("${name}") before using an optional rhiza`,
        )
      }
      const target = germination.byName.get(name)
      if (target?.state !== 'live') {
        throw new Error(
          `rhiza "${name}" is ${target?.state ?? 'not installed'}; ask ctx.has("${name}") first`,
        )
      }
      return (target.instance as { api: T }).api
    },
    has(name: string): boolean {
      return name === MYCELIUM || liveEdge(name)
    },
    storage: options.storage(spore),
    schedule: options.schedule(spore),
  }
}

function declares(spore: GerminatedSpore, name: string): boolean {
  return (spore.manifest?.requires ?? []).some((requirement) =>
    alternativesOf(requirement).some((alternative) => alternative.rhiza === name),
  )
}
