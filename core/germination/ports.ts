import type {
  CompiledCatalog,
  ConfigSchema,
  EnzymeStartContext,
  HyphaContext,
  InhibitorContext,
  Logger,
  Manifest,
  PluginKind,
  PluginState,
  RhizaContext,
  StorageMigration,
  TranslatableRef,
} from '@mycelo/septum'
import type { GerminationWarning } from './discovery.ts'

/** How a spore's install row looks to germination. */
export interface InstallState {
  readonly enabled: boolean
  /** Why it is disabled, when it is; shown to the operator. */
  readonly reason: string | null
}

/** What the store remembers of a spore beyond its install row's state. */
export interface InstallMemory {
  /** Its kind and enforcing flag at its last readable germination; undefined kind when never read. */
  readonly kind: PluginKind | undefined
  readonly enforcing: boolean
  /** False while a first start has recorded it but not yet decided whether it runs. */
  readonly settled: boolean
}

/** A discovered spore as recorded before any module is imported. */
export interface DiscoveredSpore {
  readonly name: string
  /** Undefined when its manifest could not be read: the store keeps what it last knew. */
  readonly kind: PluginKind | undefined
  readonly enforcing: boolean
}

/** What germination needs from the store: install rows and stored settings. */
export interface PluginStorePort {
  /** Whether no spore was ever recorded: the first start enables what validates. */
  isFresh(): boolean
  installOf(name: string): InstallState | undefined
  /** Records a decided state; the row is settled from then on. */
  recordInstall(name: string, state: InstallState): void
  /**
   * In one transaction: a row for every spore not yet recorded (`newcomer` says how; `settled:
   * false` leaves the first start's decision open), and the kind of every one whose manifest reads.
   */
  recordDiscovered(spores: readonly DiscoveredSpore[], newcomer: InstallState & { settled: boolean }): void
  memoryOf(name: string): InstallMemory | undefined
  /** Enabled installs last known as enforcing inhibitors: their guard holds even when they vanish. */
  rememberedGuards(): readonly string[]
  /** The stored settings of a plugin, secrets included (in the clear: this is the running core). */
  settingsOf(name: string): Record<string, unknown>
}

/** A spore as germination leaves it; `instance` is set only for a live one. */
export interface GerminatedSpore {
  readonly name: string
  readonly dir: string
  /** The declared kind, read from the raw manifest when the manifest itself was refused. */
  readonly kind: PluginKind | undefined
  readonly manifest: Manifest | undefined
  /**
   * 'live' means usable: before startAll runs it reads "ready to start", and startAll demotes a
   * spore whose lifecycle step fails to 'dormant'. No separate 'ready' state: nothing between
   * germination and start-up needs to tell the two apart.
   */
  state: PluginState
  reason: string | undefined
  /**
   * The catalogue words of `reason` when a fault carried its own (a channel's connect error), kept
   * with the text they were recorded for: a later reason with other text leaves them unused.
   */
  reasonWords?: { readonly text: string; readonly prefix: string; readonly ref: TranslatableRef } | undefined
  /** An inhibitor declared enforcing (read raw when the manifest was refused). */
  readonly enforcing: boolean
  /** The rhizas this spore's requires resolved to (any_of collapsed), optional ones included when present. */
  readonly edges: readonly string[]
  /** The subset of `edges` this spore cannot live without: their dormancy is its own. */
  readonly mandatory: readonly string[]
  readonly configSchema: ConfigSchema | undefined
  /** The default export's `operations`, unchecked (the agent runtime parses them); undefined if none. */
  readonly operations: unknown
  /** septum 1.1: the default export's storage migrations, checked; empty when it declares none. */
  readonly migrations: readonly StorageMigration[]
  /** The validated settings (what the schema parsed); never log them, secrets are in the clear. */
  readonly config: Record<string, unknown>
  readonly secrets: readonly string[]
  /** Compiled translations/<locale>.yaml, by locale; empty when the spore ships none. */
  readonly catalogs: ReadonlyMap<string, CompiledCatalog>
  /** What create() returned: a Hypha, Rhiza, Enzyme or Inhibitor. */
  instance: unknown
}

/** The outcome of germination: every discovered spore, and the order they start in. */
export interface Germination {
  /** Every discovered spore, sorted by name. */
  readonly spores: readonly GerminatedSpore[]
  readonly byName: ReadonlyMap<string, GerminatedSpore>
  /** Every spore, each required rhiza before its dependants, ties broken by name. */
  readonly order: readonly GerminatedSpore[]
  readonly logger: Logger
  /** What startAll has started, in start order; stopAll stops them and empties it. */
  readonly started: GerminatedSpore[]
  /** What the report shows beside the spores, such as a spores folder that does not exist. */
  readonly warnings: readonly GerminationWarning[]
}

/** The core builds each spore's context; germination only decides when to call it. */
export interface ContextFactory {
  hypha(spore: GerminatedSpore): HyphaContext
  rhiza(spore: GerminatedSpore): RhizaContext
  enzymeStart(spore: GerminatedSpore): EnzymeStartContext
  inhibitor(spore: GerminatedSpore): InhibitorContext
  /**
   * Runs the spore's storage migrations not applied yet, just before it starts (connects): the
   * reason it must not start when one fails, undefined when all went through.
   */
  migrate(spore: GerminatedSpore): string | undefined
}
