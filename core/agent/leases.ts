import { forageOf } from './catalog.ts'
import type { Forage } from './forage.ts'
import { type AgentModule, installModules, type Leaf } from './namespace.ts'

/** A bounded projection of a capability (a connection, the live spores): modules and how to let go. */
export interface CapabilitySnapshot {
  readonly modules: readonly AgentModule[]
  release(): Promise<void>
}

/** Where a current snapshot comes from; `invalidate` marks the one it answers stale. */
export interface CapabilitySource {
  readonly id: string
  acquire(invalidate: () => void): Promise<CapabilitySnapshot>
}

/** A coherent graph held for one run: it keeps its snapshots whatever is invalidated meanwhile. */
export interface Lease {
  readonly leaves: ReadonlyMap<string, Leaf>
  readonly forage: Forage
  release(): Promise<void>
}

interface Held {
  readonly snapshot: CapabilitySnapshot
  stale: boolean
  holders: number
}

interface Graph {
  readonly key: readonly Held[]
  readonly leaves: ReadonlyMap<string, Leaf>
  readonly forage: Forage
}

/** Hands out leases over fixed modules and sources; owns every snapshot it acquired until close. */
export class LeaseKeeper {
  readonly #modules: readonly AgentModule[]
  readonly #sources: readonly CapabilitySource[]
  readonly #current = new Map<string, Held>()
  #graph: Graph | undefined
  #closed = false

  constructor(modules: readonly AgentModule[], sources: readonly CapabilitySource[]) {
    this.#modules = modules
    this.#sources = sources
    // A definition error surfaces when the runtime opens, not at the first call.
    if (sources.length === 0) this.#graph = graphOf(modules, [])
  }

  async lease(): Promise<Lease> {
    if (this.#closed) throw new Error('the agent runtime is closed')
    const taken: Held[] = []
    try {
      for (const source of this.#sources) taken.push(await this.#hold(source))
    } catch (error) {
      // Unwound in reverse, the last acquired first; a snapshot no other lease holds is released now.
      for (const held of taken.reverse()) {
        if (held.holders === 1) held.stale = true
        await this.#letGo(held)
      }
      throw error
    }
    const graph = this.#graphFor(taken)
    let released = false
    return {
      leaves: graph.leaves,
      forage: graph.forage,
      release: async () => {
        if (released) return
        released = true
        for (const held of [...taken].reverse()) await this.#letGo(held)
      },
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    const all = [...this.#current.values()].reverse()
    this.#current.clear()
    for (const held of all) {
      held.stale = true
      if (held.holders === 0) await held.snapshot.release()
    }
  }

  async #hold(source: CapabilitySource): Promise<Held> {
    const current = this.#current.get(source.id)
    if (current !== undefined && !current.stale) {
      current.holders++
      return current
    }
    const held: Held = { snapshot: undefined as unknown as CapabilitySnapshot, stale: false, holders: 1 }
    // Only marks: the snapshot is let go by its last holder, or replaced by the next lease.
    const snapshot = await source.acquire(() => {
      held.stale = true
    })
    Object.assign(held, { snapshot })
    if (current !== undefined && current.holders === 0) await current.snapshot.release()
    this.#current.set(source.id, held)
    return held
  }

  async #letGo(held: Held): Promise<void> {
    held.holders--
    if (held.holders > 0 || !held.stale) return
    const source = [...this.#current.entries()].find(([, value]) => value === held)
    if (source !== undefined) this.#current.delete(source[0])
    await held.snapshot.release()
  }

  #graphFor(taken: readonly Held[]): Graph {
    const cached = this.#graph
    if (cached !== undefined && sameKey(cached.key, taken)) return cached
    const graph = graphOf(this.#modules, taken)
    this.#graph = graph
    return graph
  }
}

function graphOf(modules: readonly AgentModule[], taken: readonly Held[]): Graph {
  const leaves = installModules([...modules, ...taken.flatMap((held) => held.snapshot.modules)])
  return { key: taken, leaves: new Map(leaves.map((leaf) => [leaf.path, leaf])), forage: forageOf(leaves) }
}

function sameKey(a: readonly Held[], b: readonly Held[]): boolean {
  return a.length === b.length && a.every((held, at) => held === b[at])
}
