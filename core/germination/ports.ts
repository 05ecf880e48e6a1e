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
} from '@mycelo/septum'
import type { GerminationWarning } from './discovery.ts'

/** How a spore's install row looks to germination. */
export interface InstallState {
  readonly enabled: boolean
  /** Why it is disabled, when it is; shown to the operator. */
  readonly reason: string | null
}

/** What germination needs from the store: install rows and stored settings. */
export interface PluginStorePort {
  /** Whether no spore was ever recorded: the first start enables what validates. */
  isFresh(): boolean
  installOf(name: string): InstallState | undefined
  recordInstall(name: string, state: InstallState): void
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
  /** An inhibitor declared enforcing (read raw when the manifest was refused). */
  readonly enforcing: boolean
  /** The rhizas this spore's requires resolved to (any_of collapsed), optional ones included when present. */
  readonly edges: readonly string[]
  /** The subset of `edges` this spore cannot live without: their dormancy is its own. */
  readonly mandatory: readonly string[]
  readonly configSchema: ConfigSchema | undefined
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
}
