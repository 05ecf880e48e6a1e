import type { GerminatedSpore, Germination } from './ports.ts'
import { dependencyOrder } from './requires-graph.ts'

interface Mutable {
  spores: GerminatedSpore[]
  byName: Map<string, GerminatedSpore>
  order: GerminatedSpore[]
}

/**
 * Puts a spore germinated again in place of its former self (or beside the others when new), in
 * one synchronous step: every reader of the germination sees the old one or the new one, never
 * neither. The start order is drawn again, since its requires may have changed.
 */
export function swapSpore(germination: Germination, next: GerminatedSpore): GerminatedSpore | undefined {
  const target = germination as unknown as Mutable
  const previous = target.byName.get(next.name)
  target.byName.set(next.name, next)
  const index = previous ? target.spores.indexOf(previous) : -1
  if (index === -1) {
    target.spores.push(next)
    target.spores.sort((a, b) => a.name.localeCompare(b.name))
  } else target.spores[index] = next
  const graph = new Map(target.spores.map((spore) => [spore.name, spore.edges]))
  const order = dependencyOrder(graph).map((name) => target.byName.get(name)!)
  // Vanished guards have no folder and no place in the graph: they keep theirs at the end.
  const placed = new Set(order)
  target.order.splice(0, target.order.length, ...order, ...target.spores.filter((s) => !placed.has(s)))
  return previous
}

/** Takes a spore whose folder is gone out of the germination; the others keep their order. */
export function dropSpore(germination: Germination, name: string): GerminatedSpore | undefined {
  const target = germination as unknown as Mutable
  const previous = target.byName.get(name)
  if (previous === undefined) return undefined
  target.byName.delete(name)
  target.spores.splice(target.spores.indexOf(previous), 1)
  target.order.splice(target.order.indexOf(previous), 1)
  return previous
}
