import { resolve } from 'node:path'
import { type Logger, type PluginKind, septumIncompatibility } from '@mycelo/septum'
import { hostKeeper } from '../hosts/keeper.ts'
import { coreReason } from '../i18n/reason-words.ts'
import { DEFAULT_DEADLINES, EXPIRY } from '../supervision/deadline.ts'
import { bounded, PREPARING_AT_ONCE } from './bounded.ts'
import { loadCatalogues } from './catalogues.ts'
import { createInstance } from './creation.ts'
import { discoverSpores } from './discovery.ts'
import { installGate, MISSING_GUARD_REASON, recordDiscovered, recordFirstStart } from './enablement.ts'
import { type ManifestReading, readDiscovered } from './manifest-reading.ts'
import type { LoadedModule } from './module-loading.ts'
import { setNameClashesAside } from './name-clash.ts'
import type { GerminatedSpore, Germination, InstallMemory, PluginStorePort } from './ports.ts'
import { prepareSpore } from './preparation.ts'
import { probeFirstStart } from './probe.ts'
import { propagateDormancy } from './propagation.ts'
import { resolveRequires } from './requires.ts'
import { dependencyOrder, setCyclesAside } from './requires-graph.ts'

export interface GerminateOptions {
  /** Folders whose immediate subfolders are spores; a missing folder holds none. */
  readonly folders: readonly string[]
  readonly store: PluginStorePort
  readonly logger: Logger
  /** The septum the core runs; defaults to this package's own. */
  readonly septumVersion?: string
  /** How long importing a module, and then its create(), may each take. */
  readonly createDeadlineMs?: number
  /** Where installed spores go: a folder that may not exist before the first install. */
  readonly installs?: string
}

export type Draft = { -readonly [K in keyof GerminatedSpore]: GerminatedSpore[K] }

/** The spores folders, and the installs folder when none of them is it: what is installed is looked at. */
export function foldersWithInstalls(folders: readonly string[], installs: string | undefined): string[] {
  if (installs === undefined) return [...folders]
  const target = resolve(installs)
  return folders.some((folder) => resolve(folder) === target) ? [...folders] : [...folders, installs]
}

/** Names the core answers to itself: a spore under one would shadow the core's own catalogue or surface. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['common', 'core', 'mycelium'])

/**
 * Turns folders of spores into germinated spores, each live (ready to start), disabled or dormant
 * with a reason. A requires cycle makes its members dormant, naming it; a name found twice keeps
 * its first folder and sets the others aside with a warning: neither refuses the bot. Throws a
 * StartupRefusal only for a spores folder that cannot be read.
 */
export async function germinate(options: GerminateOptions): Promise<Germination> {
  const awaited = options.installs === undefined ? [] : [options.installs]
  const discovery = await discoverSpores(
    foldersWithInstalls(options.folders, options.installs),
    options.logger,
    awaited,
  )
  const { kept: readings, warnings: clashes } = setNameClashesAside(await readDiscovered(discovery))
  for (const clash of clashes) options.logger.warn('a spore folder was set aside: its name is taken', clash)
  const installed = new Map<string, PluginKind>()
  for (const reading of readings) if (reading.manifest) installed.set(reading.name, reading.manifest.kind)
  const drafts = readings.map((reading) => draftOf(reading, installed, options.septumVersion))
  for (const cycle of setCyclesAside(drafts)) {
    options.logger.warn('spores left dormant: their requires close a cycle', { cycle })
  }
  const graph = new Map(drafts.map((draft) => [draft.name, draft.edges]))
  recordDiscovered(options.store, readings)
  for (const draft of drafts) remember(draft, options.store.memoryOf(draft.name))
  const vanished = missingGuards(options.store, new Set(graph.keys()))
  const byName = new Map([...drafts, ...vanished].map((draft) => [draft.name, draft]))
  const order = [...dependencyOrder(graph).map((name) => byName.get(name)!), ...vanished]

  const deadlineMs = options.createDeadlineMs ?? DEFAULT_DEADLINES.create
  const modules = await settleInstalls({ order, store: options.store, deadlineMs, logger: options.logger })

  // One create() per spore still usable, each required rhiza's before its dependants': a spore waits
  // for what it requires only, so the round trips to a hundred hosts are not made one after another.
  const creations = new Map<string, Promise<void>>()
  for (const draft of order) {
    const required = draft.edges.map((name) => creations.get(name))
    const creation = async () => {
      await Promise.all(required)
      propagateDormancy([draft], byName)
      if (draft.state !== 'live' || draft.manifest === undefined) return
      const created = await createInstance(draft.manifest, modules.get(draft.name), deadlineMs)
      if (created.ok) draft.instance = created.instance
      else setState(draft, 'dormant', created.reason)
    }
    creations.set(draft.name, creation())
  }
  await Promise.all(creations.values())

  for (const draft of order) {
    const meta = { spore: draft.name, kind: draft.kind, state: draft.state, reason: draft.reason }
    options.logger.debug('germinated', meta)
    if (draft.reason?.includes(EXPIRY)) options.logger.warn('deadline passed', meta)
  }
  const spores = [...drafts, ...vanished].sort((a, b) => a.name.localeCompare(b.name))
  const warnings = [...discovery.warnings, ...clashes]
  return { spores, byName, order, logger: options.logger, started: [], warnings }
}

/**
 * Applies the install rows, then runs the checks that read a spore's own files for every spore
 * still usable. On a fresh store, records each spore's first enabled state. Answers the modules.
 */
async function settleInstalls(options: {
  order: readonly Draft[]
  store: PluginStorePort
  deadlineMs: number
  logger: Logger
}) {
  const { order, store, deadlineMs } = options
  const probed = await probeFirstStarts(options)
  const modules = new Map<string, LoadedModule | undefined>()
  // Each spore's checks read only its own files (and start its own host): several run at once.
  await bounded(order, PREPARING_AT_ONCE, async (draft) => {
    if (draft.dir === '') return // a vanished guard: nothing on disk to check
    const gate = installGate(store, draft.name)
    if (!gate.open) {
      setState(draft, 'disabled', gate.reason)
      await readCatalogues(draft)
      return
    }
    if (draft.state === 'live') {
      const refusedByProbe = probed?.[draft.name] ?? undefined
      modules.set(draft.name, await prepare(draft, store, { deadlineMs, refusedByProbe }))
    } else await readCatalogues(draft)
    if (!gate.firstStart) return
    const { name, reason, enforcing } = draft
    if (!recordFirstStart({ store, name, reason, enforcing })) setState(draft, 'disabled', reason)
  })
  return modules
}

/**
 * The spores a first start decides, checked in a probe process first (see probe.ts). A spore that
 * runs in a host is not: its module never enters the bot's memory (a refused spore's host is
 * ended), and the probe would import it unguarded, outside any host, a second time.
 */
async function probeFirstStarts(options: {
  order: readonly Draft[]
  store: PluginStorePort
  deadlineMs: number
  logger: Logger
}) {
  const { store } = options
  const deciding = options.order.filter((draft) => {
    if (draft.dir === '' || draft.state !== 'live' || draft.manifest === undefined) return false
    if (hostKeeper.isolationOf(draft.name, draft.dir) === 'worker') return false
    const gate = installGate(store, draft.name)
    return gate.open && gate.firstStart
  })
  const spores = deciding.map((draft) => ({
    name: draft.name,
    dir: draft.dir,
    manifest: draft.manifest!,
    settings: store.settingsOf(draft.name),
  }))
  return probeFirstStart({ deadlineMs: options.deadlineMs, spores }, options.logger)
}

/**
 * A manifest that cannot be read says nothing trustworthy of what the spore is: the store's memory
 * of its last readable germination decides, leaning towards enforcing.
 */
function remember(draft: Draft, memory: InstallMemory | undefined): void {
  if (draft.manifest !== undefined || memory === undefined) return
  draft.kind ??= memory.kind
  if (draft.kind === 'inhibitor') draft.enforcing ||= memory.enforcing
}

/** An enabled enforcing inhibitor whose folder is gone still guards: it stands dormant, refusing all. */
function missingGuards(store: PluginStorePort, discovered: ReadonlySet<string>): Draft[] {
  return store
    .rememberedGuards()
    .filter((name) => !discovered.has(name))
    .map((name) => ({
      ...blankDraft(name, ''),
      kind: 'inhibitor',
      enforcing: true,
      reason: MISSING_GUARD_REASON,
    }))
}

export function draftOf(
  reading: ManifestReading,
  installed: ReadonlyMap<string, PluginKind>,
  septumVersion: string | undefined,
): Draft {
  const { manifest } = reading
  const requires = manifest === undefined ? undefined : resolveRequires(manifest, installed)
  const edges = requires?.edges ?? []
  const reason =
    reservedNameRefusal(reading.name) ??
    reading.refusal ??
    (manifest && septumIncompatibility(manifest.septum, septumVersion)) ??
    (requires?.ok === false ? requires.reason : undefined)
  return {
    ...blankDraft(reading.name, reading.dir),
    kind: reading.kind,
    manifest,
    state: reason === undefined ? 'live' : 'dormant',
    reason,
    enforcing: reading.enforcing,
    edges: edges.map((edge) => edge.target),
    mandatory: edges.filter((edge) => !edge.optional).map((edge) => edge.target),
  }
}

function reservedNameRefusal(name: string): string | undefined {
  if (!RESERVED_NAMES.has(name)) return undefined
  return coreReason('reservedName', { name })
}

/**
 * The catalogues of a spore that will not start, so what it says of itself (its description, its
 * commands' words) still reads in each person's language; a catalogue that does not compile is
 * reported when the spore is enabled, not here.
 */
async function readCatalogues(draft: Draft): Promise<void> {
  if (draft.manifest === undefined || draft.catalogs.size > 0) return
  const read = await loadCatalogues(draft.dir)
  if (read.ok) draft.catalogs = read.catalogs
}

/** A dormant draft that knows only its name and folder; the caller fills in what it knows. */
export function blankDraft(name: string, dir: string): Draft {
  return {
    name,
    dir,
    kind: undefined,
    manifest: undefined,
    state: 'dormant',
    reason: undefined,
    enforcing: false,
    edges: [],
    mandatory: [],
    configSchema: undefined,
    operations: undefined,
    migrations: [],
    config: {},
    secrets: [],
    catalogs: new Map(),
    instance: undefined,
  }
}

/** Catalogues, module and settings onto the draft; `fresh` imports the module anew (a reload). */
export async function prepare(
  draft: Draft,
  store: PluginStorePort,
  options: { deadlineMs: number; refusedByProbe?: string | undefined; fresh?: number | undefined },
) {
  const { name, dir } = draft
  const prepared = await prepareSpore({
    name,
    dir,
    manifest: draft.manifest!,
    store,
    deadlineMs: options.deadlineMs,
    ...(options.refusedByProbe === undefined ? {} : { refusedByProbe: options.refusedByProbe }),
    ...(options.fresh === undefined ? {} : { fresh: options.fresh }),
  })
  draft.catalogs = prepared.catalogs
  draft.configSchema = prepared.configSchema
  draft.operations = prepared.module?.exported.operations
  draft.migrations = prepared.module?.exported.migrations ?? []
  draft.secrets = prepared.secrets
  draft.config = prepared.config
  if (prepared.reason !== undefined) setState(draft, 'dormant', prepared.reason)
  return prepared.module
}

export function setState(draft: Draft, state: Draft['state'], reason: string | undefined): void {
  draft.state = state
  draft.reason = reason
  draft.instance = undefined
}
