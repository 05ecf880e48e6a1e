import {
  alternativesOf,
  type Logger,
  MYCELIUM,
  type SporeContext,
  type SporeSchedule,
  type SporeStorage,
} from '@mycelo/septum'
import { markApi } from '../hosts/call-kinds.ts'
import { liveApi } from './live-api.ts'
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
  const notLive = (name: string) => {
    const target = germination.byName.get(name)
    return new Error(`rhiza "${name}" is ${target?.state ?? 'not installed'}; ask ctx.has("${name}") first`)
  }
  /** The api of the rhiza's current self, or undefined while it is not running. */
  const currentApi = (name: string) => {
    const target = germination.byName.get(name)
    const api = target?.state === 'live' ? (target.instance as { api?: unknown }).api : undefined
    return typeof api === 'object' && api !== null ? api : undefined
  }
  const views = new Map<string, object>()
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
      if (target?.state !== 'live') throw notLive(name)
      const api = (target.instance as { api: T }).api
      if (typeof api !== 'object' || api === null) return api
      // Held across restarts of the rhiza (its host's, a reload's): each call reaches its current self.
      let view = views.get(name)
      if (view === undefined) {
        view = markApi(
          liveApi(
            api,
            () => currentApi(name),
            () => notLive(name),
          ),
        )
        views.set(name, view)
      }
      return view as T
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
