import { type Logger, type PluginKind, septumIncompatibility } from '@mycelo/septum'
import { createInstance } from './creation.ts'
import { discoverSpores } from './discovery.ts'
import { installGate, recordFirstStart } from './enablement.ts'
import { type ManifestReading, readDiscovered } from './manifest-reading.ts'
import type { LoadedModule } from './module-loading.ts'
import { refuseNameClashes } from './name-clash.ts'
import type { GerminatedSpore, Germination, PluginStorePort } from './ports.ts'
import { prepareSpore } from './preparation.ts'
import { propagateDormancy } from './propagation.ts'
import { resolveRequires } from './requires.ts'
import { dependencyOrder, refuseCycles } from './requires-graph.ts'

export interface GerminateOptions {
  /** Folders whose immediate subfolders are spores; a missing folder holds none. */
  readonly folders: readonly string[]
  readonly store: PluginStorePort
  readonly logger: Logger
  /** The septum the core runs; defaults to this package's own. */
  readonly septumVersion?: string
}

type Draft = { -readonly [K in keyof GerminatedSpore]: GerminatedSpore[K] }

/**
 * Turns folders of spores into germinated spores, each live (ready to start), disabled or dormant
 * with a reason. Throws a StartupRefusal for a fault of the whole set: a requires cycle or a name
 * found twice. Refusals come before any spore's code runs or any install row is written.
 */
export async function germinate(options: GerminateOptions): Promise<Germination> {
  const discovery = await discoverSpores(options.folders, options.logger)
  const readings = await readDiscovered(discovery)
  refuseNameClashes(readings)
  const installed = new Map<string, PluginKind>()
  for (const reading of readings) if (reading.manifest) installed.set(reading.name, reading.manifest.kind)
  const drafts = readings.map((reading) => draftOf(reading, installed, options.septumVersion))
  const graph = new Map(drafts.map((draft) => [draft.name, draft.edges]))
  refuseCycles(graph)
  const byName = new Map(drafts.map((draft) => [draft.name, draft]))
  const order = dependencyOrder(graph).map((name) => byName.get(name)!)

  const modules = await settleInstalls(order, options.store)

  // One create() per spore still usable, each required rhiza's before its dependants'.
  for (const draft of order) {
    propagateDormancy([draft], byName)
    if (draft.state !== 'live' || draft.manifest === undefined) continue
    const created = await createInstance(draft.manifest, modules.get(draft.name))
    if (created.ok) draft.instance = created.instance
    else setState(draft, 'dormant', created.reason)
  }

  for (const draft of order) {
    const meta = { spore: draft.name, kind: draft.kind, state: draft.state, reason: draft.reason }
    options.logger.debug('germinated', meta)
  }
  const spores = [...drafts].sort((a, b) => a.name.localeCompare(b.name))
  return { spores, byName, order, logger: options.logger, started: [], warnings: discovery.warnings }
}

/**
 * Applies the install rows, then runs the checks that read a spore's own files for every spore
 * still usable. On a fresh store, records each spore's first enabled state. Answers the modules.
 */
async function settleInstalls(order: readonly Draft[], store: PluginStorePort) {
  const modules = new Map<string, LoadedModule | undefined>()
  const fresh = store.isFresh()
  for (const draft of order) {
    const held = installGate(store, draft.name, fresh)
    if (held !== undefined) {
      setState(draft, 'disabled', held)
      continue
    }
    if (draft.state === 'live') modules.set(draft.name, await prepare(draft, store))
    if (!fresh) continue
    const { name, reason, enforcing } = draft
    if (!recordFirstStart({ store, name, reason, enforcing })) setState(draft, 'disabled', reason)
  }
  return modules
}

function draftOf(
  reading: ManifestReading,
  installed: ReadonlyMap<string, PluginKind>,
  septumVersion: string | undefined,
): Draft {
  const { manifest } = reading
  const requires = manifest === undefined ? undefined : resolveRequires(manifest, installed)
  const edges = requires?.edges ?? []
  const reason =
    reading.refusal ??
    (manifest && septumIncompatibility(manifest.septum, septumVersion)) ??
    (requires?.ok === false ? requires.reason : undefined)
  return {
    name: reading.name,
    dir: reading.dir,
    kind: reading.kind,
    manifest,
    state: reason === undefined ? 'live' : 'dormant',
    reason,
    enforcing: reading.enforcing,
    edges: edges.map((edge) => edge.target),
    mandatory: edges.filter((edge) => !edge.optional).map((edge) => edge.target),
    configSchema: undefined,
    config: {},
    secrets: [],
    catalogs: new Map(),
    instance: undefined,
  }
}

async function prepare(draft: Draft, store: PluginStorePort): Promise<LoadedModule | undefined> {
  const prepared = await prepareSpore({ name: draft.name, dir: draft.dir, manifest: draft.manifest!, store })
  draft.catalogs = prepared.catalogs
  draft.configSchema = prepared.configSchema
  draft.secrets = prepared.secrets
  draft.config = prepared.config
  if (prepared.reason !== undefined) setState(draft, 'dormant', prepared.reason)
  return prepared.module
}

function setState(draft: Draft, state: Draft['state'], reason: string | undefined): void {
  draft.state = state
  draft.reason = reason
  draft.instance = undefined
}
