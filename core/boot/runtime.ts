import type { Logger } from '@mycelo/septum'
import { AdmissionChain } from '../admission/chain.ts'
import { InhibitorRoster } from '../admission/roster.ts'
import { type Germination, RESERVED_NAMES } from '../germination/index.ts'
import { Translator } from '../i18n/translator.ts'
import { PrincipalDirectory } from '../identity/directory.ts'
import { createMycelium } from '../mycelium/index.ts'
import { Rhizomorph } from '../rhizomorph/bus.ts'
import { SporeContexts } from '../rhizomorph/contexts.ts'
import { ConversationBook } from '../rhizomorph/conversations.ts'
import { HyphaRegistry } from '../rhizomorph/hyphae.ts'
import { MessageListeners } from '../rhizomorph/listeners.ts'
import { RestrictionBook } from '../rhizomorph/restrictions.ts'
import { RouteMap } from '../rhizomorph/routes.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { PluginStore, Store } from '../store/index.ts'
import { Regermination } from '../supervision/regermination.ts'
import { Supervisor, type SupervisorOptions } from '../supervision/supervisor.ts'
import type { DomainCatalogs } from './catalogues.ts'
import type { MyceloConfig } from './config.ts'

export interface AssembleOptions {
  readonly config: MyceloConfig
  readonly store: Store
  readonly plugins: PluginStore
  readonly logger: Logger
  readonly germination: Germination
  /** The core's own catalogues and the shared `common` ones. */
  readonly core: DomainCatalogs
  readonly common: DomainCatalogs
  /** How often health() is polled and how reconnects back off; the defaults unless given (tests). */
  readonly supervision?: Pick<SupervisorOptions, 'pollMs' | 'backoff' | 'logGapMs'>
}

export interface Assembly {
  readonly runtime: CoreRuntime
  /** Every spore's context; germination's startAll takes it as its ContextFactory. */
  readonly contexts: SporeContexts
  readonly bus: Rhizomorph
}

/** Joins germination's result to the store, the translator and the message path. */
export function assembleRuntime(options: AssembleOptions): Assembly {
  const { config, store, plugins, logger, germination } = options
  const translator = new Translator({ defaultLocale: config.defaultLocale, logger })
  translator.addDomain('core', options.core)
  translator.addDomain('common', options.common)
  // A spore under a reserved name is dormant; its catalogue must not replace the core's either.
  for (const spore of germination.spores) {
    if (!RESERVED_NAMES.has(spore.name)) translator.addDomain(spore.name, spore.catalogs)
  }
  let mycelium: ((spore: Parameters<CoreRuntime['mycelium']>[0]) => object) | undefined
  let lifecycle: Regermination | undefined
  let supervisor: Supervisor | undefined
  const runtime: CoreRuntime = {
    config,
    store,
    plugins,
    logger,
    germination,
    translator,
    routes: new RouteMap(germination),
    hyphae: new HyphaRegistry({ germination, deadlines: config.timeouts, logger }),
    directory: new PrincipalDirectory({ store, defaultRole: config.defaultRole, logger }),
    conversations: new ConversationBook(store),
    restrictions: new RestrictionBook(store),
    listeners: new MessageListeners(),
    mycelium: (spore) => {
      mycelium ??= createMycelium(runtime)
      return mycelium(spore)
    },
    get lifecycle() {
      return lifecycle!
    },
    get supervisor() {
      return supervisor!
    },
  }
  let bus: Rhizomorph | undefined
  const contexts = new SporeContexts(runtime, (hypha, message) => bus!.emit(hypha, message))
  lifecycle = new Regermination({
    germination,
    store: plugins,
    contexts,
    deadlines: config.timeouts,
    logger,
    folders: config.spores,
    installs: config.sporangia.installs,
    swapped: (spore) => {
      // Everything keyed by the spore's name is drawn again from its new self.
      contexts.forget(spore.name)
      runtime.listeners.remove(spore.name)
      if (!RESERVED_NAMES.has(spore.name)) translator.addDomain(spore.name, spore.catalogs)
      runtime.routes.refresh()
      roster.refresh(germination.spores)
    },
  })
  supervisor = new Supervisor({
    germination,
    lifecycle,
    logger,
    healthMs: config.timeouts.health,
    ...(options.supervision ?? {}),
  })
  const roster = new InhibitorRoster(
    germination.spores,
    (spore) => contexts.inhibitor(spore),
    (name) => lifecycle!.restarting(name),
  )
  const admission = new AdmissionChain({
    members: roster.current,
    confinedTo: (name) => runtime.restrictions.confinedTo(name),
    confinesAny: () => runtime.restrictions.confinesAny(),
    logger,
    deadlineMs: config.timeouts.inspect,
  })
  bus = new Rhizomorph({ runtime, contexts, admission })
  return { runtime, contexts, bus }
}
