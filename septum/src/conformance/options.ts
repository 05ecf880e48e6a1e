import type {
  EnzymeContext,
  EnzymeModule,
  EnzymeStartContext,
  HyphaContext,
  HyphaModule,
  IncomingMessage,
  InhibitorContext,
  InhibitorModule,
  RhizaContext,
  RhizaModule,
} from '../contract/index.ts'

/** What every check takes: the spore as the bot would find it on disk. */
export interface SporeCheckOptions {
  /** The name the plugin is published under; the manifest's `name` must equal it. */
  readonly name: string
  /** spore.yaml as parsed, before validation: the kit validates it the way germination does. */
  readonly manifest: unknown
  /** A configuration the module's configSchema must accept. */
  readonly config?: unknown
  /** A configuration the module's configSchema must refuse, with issues an operator can read. */
  readonly invalidConfig?: unknown
  /** The septum the manifest's range must admit; defaults to this package's SEPTUM_VERSION. */
  readonly septumVersion?: string
}

export interface HyphaCheckOptions<C = Record<string, unknown>> extends SporeCheckOptions {
  /** The module's default export. */
  readonly module: HyphaModule<C>
  /** The context handed to connect(). */
  readonly context: () => HyphaContext<C>
  /** A group listGroupMembers() must answer an array for. */
  readonly membershipGroupId?: string
  /** Where the check's send() goes; `conformance` unless given. */
  readonly conversationId?: string
}

export interface RhizaCheckOptions<Api = unknown, C = Record<string, unknown>> extends SporeCheckOptions {
  readonly module: RhizaModule<Api, C>
  /** The context handed to start(). */
  readonly context: () => RhizaContext<C>
}

export interface EnzymeCheckOptions<C = Record<string, unknown>> extends SporeCheckOptions {
  /** May be absent only when every command is `respond:`. */
  readonly module?: EnzymeModule<C>
  /** The context a handler gets. */
  readonly context: () => EnzymeContext<C>
  /** The context start() gets; narrowed from context() when absent. */
  readonly startContext?: () => EnzymeStartContext<C>
  /** Parsed translation files keyed by locale, e.g. `{ en: parse(readFileSync('translations/en.yaml')) }`. */
  readonly catalogs?: Readonly<Record<string, unknown>>
}

export interface InhibitorExpectation {
  /** Fields left out are filled with a plain direct message. */
  readonly message: Partial<IncomingMessage>
  /** Whether inspect() must allow the message. */
  readonly allow: boolean
  /** Names the expectation in a failure; the message text otherwise. */
  readonly label?: string
}

export interface InhibitorCheckOptions<C = Record<string, unknown>> extends SporeCheckOptions {
  readonly module: InhibitorModule<C>
  /** The context handed to start() and inspect(). */
  readonly context: () => InhibitorContext<C>
  readonly expectations: readonly InhibitorExpectation[]
}
