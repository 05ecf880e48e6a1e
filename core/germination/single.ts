import type { PluginKind } from '@mycelo/septum'
import { createInstance } from './creation.ts'
import { installGate } from './enablement.ts'
import { blankDraft, type Draft, draftOf, prepare, setState } from './germinate.ts'
import { readManifest } from './manifest-reading.ts'
import type { GerminatedSpore, Germination, PluginStorePort } from './ports.ts'
import { propagateDormancy } from './propagation.ts'
import { cycleReason, findCycles } from './requires-graph.ts'

export interface SingleOptions {
  readonly germination: Germination
  /** The spore's folder; read afresh, manifest first. */
  readonly dir: string
  readonly store: PluginStorePort
  readonly deadlineMs: number
  /** Set for a reload: the module is imported anew rather than from Bun's cache. */
  readonly fresh?: number
  readonly septumVersion?: string
}

/**
 * One spore germinated again from its folder, against the others as they now stand: manifest,
 * requires (a cycle it would close refuses it alone), install row, catalogues, settings, module,
 * then create(). Nothing is swapped in and nothing started: the caller decides. Never throws.
 */
export async function germinateOne(options: SingleOptions): Promise<GerminatedSpore> {
  const { germination, store } = options
  const reading = await readManifest(options.dir)
  const installed = new Map<string, PluginKind>()
  for (const spore of germination.spores) if (spore.manifest) installed.set(spore.name, spore.manifest.kind)
  if (reading.manifest) installed.set(reading.name, reading.manifest.kind)
  const draft: Draft = draftOf(reading, installed, options.septumVersion)
  const cycle = cycleThrough(germination, draft)
  if (cycle !== undefined && draft.state === 'live') {
    setState(draft, 'dormant', cycleReason(cycle))
    // Out of the graph, so the others are still ordered and none of them is refused for it.
    draft.edges = []
    draft.mandatory = []
  }
  const gate = installGate(store, draft.name)
  if (!gate.open) {
    setState(draft, 'disabled', gate.reason)
    return draft
  }
  if (draft.state !== 'live') return draft
  const module = await prepare(draft, store, { deadlineMs: options.deadlineMs, fresh: options.fresh })
  propagateDormancy([draft], germination.byName)
  if (draft.state !== 'live' || draft.manifest === undefined) return draft
  const created = await createInstance(draft.manifest, module, options.deadlineMs)
  if (created.ok) draft.instance = created.instance
  else setState(draft, 'dormant', created.reason)
  return draft
}

/** A spore known only by name, for a row whose folder cannot be told: dormant, saying why. */
export function unreadable(name: string, reason: string): GerminatedSpore {
  return { ...blankDraft(name, ''), reason }
}

function cycleThrough(germination: Germination, draft: Draft): readonly string[] | undefined {
  const graph = new Map(germination.spores.map((spore) => [spore.name, spore.edges]))
  graph.set(draft.name, draft.edges)
  return findCycles(graph).find((cycle) => cycle.includes(draft.name))
}
