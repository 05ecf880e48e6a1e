import { isAnyOf, type Manifest, MYCELIUM, type PluginKind, type RhizaRequirement } from '@mycelo/septum'
import { coreReason } from '../i18n/reason-words.ts'

/** One resolved requires entry: the rhiza it names, and whether the spore can live without it. */
export interface RequiresEdge {
  readonly target: string
  readonly optional: boolean
}

export type RequiresResolution =
  | { readonly ok: true; readonly edges: readonly RequiresEdge[] }
  | { readonly ok: false; readonly edges: readonly RequiresEdge[]; readonly reason: string }

/**
 * Turns a manifest's requires into graph edges. `installed` maps every spore with a valid manifest
 * to its kind. The mycelium is always present and never an edge; an any_of collapses to its first
 * installed alternative. Edges are kept even when a mandatory target is missing: cycle detection
 * runs over the whole graph, dormant spores included.
 */
export function resolveRequires(
  manifest: Manifest,
  installed: ReadonlyMap<string, PluginKind>,
): RequiresResolution {
  const edges = new Map<string, boolean>()
  const missing: string[] = []
  const addEdge = (target: string, optional: boolean) => {
    edges.set(target, (edges.get(target) ?? true) && optional)
  }
  for (const requirement of manifest.requires ?? []) {
    const optional = requirement.optional === true
    if (isAnyOf(requirement)) {
      const chosen = requirement.any_of.find((alternative) => isPresent(alternative, installed))
      if (chosen !== undefined && chosen.rhiza !== MYCELIUM) addEdge(chosen.rhiza, optional)
      if (chosen === undefined && !optional) missing.push(anyOfMissing(requirement.any_of, installed))
      continue
    }
    if (requirement.rhiza === MYCELIUM) continue
    if (isPresent(requirement, installed)) addEdge(requirement.rhiza, optional)
    else if (!optional) missing.push(rhizaMissing(requirement.rhiza, installed))
  }
  const resolved = [...edges].map(([target, optional]) => ({ target, optional }))
  if (missing.length === 0) return { ok: true, edges: resolved }
  return { ok: false, edges: resolved, reason: missing.join('; ') }
}

function isPresent(requirement: RhizaRequirement, installed: ReadonlyMap<string, PluginKind>): boolean {
  return requirement.rhiza === MYCELIUM || installed.get(requirement.rhiza) === 'rhiza'
}

function rhizaMissing(target: string, installed: ReadonlyMap<string, PluginKind>): string {
  const kind = installed.get(target)
  if (kind === undefined) return coreReason('requiresMissing', { rhiza: target })
  return `requires rhiza "${target}", but "${target}" is ${article(kind)} ${kind}, not a rhiza`
}

function anyOfMissing(
  alternatives: readonly RhizaRequirement[],
  installed: ReadonlyMap<string, PluginKind>,
): string {
  const names = alternatives.map((alternative) => `"${alternative.rhiza}"`).join(', ')
  const otherKinds = alternatives.flatMap(({ rhiza }) => {
    const kind = installed.get(rhiza)
    return kind === undefined ? [] : [`"${rhiza}" is ${article(kind)} ${kind}`]
  })
  const aside = otherKinds.length === 0 ? '' : ` (${otherKinds.join(', ')})`
  return `requires one of the rhizas ${names}, none of which is installed${aside}`
}

function article(kind: PluginKind): string {
  return kind === 'enzyme' || kind === 'inhibitor' ? 'an' : 'a'
}
