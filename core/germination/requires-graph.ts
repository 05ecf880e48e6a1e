import { coreReason } from '../i18n/reason-words.ts'
/** The requires graph: every spore by name, and the rhizas each one's edges point to. */
export type RequiresGraph = ReadonlyMap<string, readonly string[]>

/**
 * Every cycle in the graph, each as the sorted names of the spores in it (Tarjan's strongly connected
 * components: a component of two or more spores, or one spore requiring itself).
 */
export function findCycles(graph: RequiresGraph): string[][] {
  const index = new Map<string, number>()
  const lowLink = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  let next = 0

  const visit = (node: string): void => {
    index.set(node, next)
    lowLink.set(node, next)
    next += 1
    stack.push(node)
    onStack.add(node)
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue
      if (!index.has(target)) {
        visit(target)
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(target)!))
      } else if (onStack.has(target)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(target)!))
      }
    }
    if (lowLink.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort())
  }

  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

/** Why a spore in a requires cycle does not start: the cycle, named member by member. */
export function cycleReason(cycle: readonly string[]): string {
  return coreReason('cycle', { cycle: cycle.join(' → ') })
}

/**
 * Sets every spore in a requires cycle aside: it goes dormant naming its cycle, and leaves the
 * graph so the others are still ordered and started. Optional edges count: two spores that only
 * optionally require each other still cannot be ordered. Answers the cycles found.
 */
export function setCyclesAside(drafts: readonly CycleMember[]): string[][] {
  const cycles = findCycles(new Map(drafts.map((draft) => [draft.name, draft.edges])))
  const byName = new Map(drafts.map((draft) => [draft.name, draft]))
  for (const cycle of cycles) {
    for (const name of cycle) {
      const draft = byName.get(name)!
      // A spore already refused for its own fault keeps that reason; its edges leave all the same.
      if (draft.state === 'live') {
        draft.state = 'dormant'
        draft.reason = cycleReason(cycle)
      }
      draft.edges = []
      draft.mandatory = []
    }
  }
  return cycles
}

interface CycleMember {
  readonly name: string
  state: string
  reason: string | undefined
  edges: readonly string[]
  mandatory: readonly string[]
}

/** Dependencies before their dependants, ties broken by name; the graph has no cycle by now. */
export function dependencyOrder(graph: RequiresGraph): string[] {
  const ordered: string[] = []
  const seen = new Set<string>()
  const visit = (node: string): void => {
    if (seen.has(node)) return
    seen.add(node)
    for (const target of [...(graph.get(node) ?? [])].sort()) if (graph.has(target)) visit(target)
    ordered.push(node)
  }
  for (const node of [...graph.keys()].sort()) visit(node)
  return ordered
}
