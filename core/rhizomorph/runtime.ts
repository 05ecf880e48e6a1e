import type { Logger } from '@mycelo/septum'
import type { MyceloConfig } from '../boot/config.ts'
import type { GerminatedSpore, Germination } from '../germination/index.ts'
import type { Translator } from '../i18n/translator.ts'
import type { PrincipalDirectory } from '../identity/directory.ts'
import type { DurableOutbox } from '../outbox/durable-outbox.ts'
import type { SporeHoldings } from '../storage/holdings.ts'
import type { PluginStore, Store } from '../store/index.ts'
import type { Regermination } from '../supervision/regermination.ts'
import type { Supervisor } from '../supervision/supervisor.ts'
import type { ConversationBook } from './conversations.ts'
import type { HyphaRegistry } from './hyphae.ts'
import type { MessageListeners } from './listeners.ts'
import type { RestrictionBook } from './restrictions.ts'
import type { RouteMap } from './routes.ts'

/** Everything the message path and the mycelium's scopes work over, assembled once at start-up. */
export interface CoreRuntime {
  readonly config: MyceloConfig
  readonly store: Store
  /** Install rows and settings; a secret written through it reaches the log redactor at once. */
  readonly plugins: PluginStore
  readonly logger: Logger
  readonly germination: Germination
  readonly translator: Translator
  readonly routes: RouteMap
  readonly hyphae: HyphaRegistry
  /** What was accepted for sending and not yet confirmed, kept in the store across restarts. */
  readonly outbox: DurableOutbox
  readonly directory: PrincipalDirectory
  readonly conversations: ConversationBook
  readonly restrictions: RestrictionBook
  readonly listeners: MessageListeners
  /** septum 1.1: each spore's storage and schedules. */
  readonly holdings: SporeHoldings
  /** Operator changes applied to the running bot: enable, disable, restart, reload. */
  readonly lifecycle: Regermination
  /** The supervised state of every hypha and rhiza: what every surface reads instead of `live`. */
  readonly supervisor: Supervisor
  /** The surface of a spore's granted mycelium scopes. */
  mycelium(spore: GerminatedSpore): object
}
