import type { Logger } from '@mycelo/septum'
import { AdmissionChain } from '../admission/chain.ts'
import { InhibitorRoster } from '../admission/roster.ts'
import { type Germination, RESERVED_NAMES } from '../germination/index.ts'
import { hostKeeper } from '../hosts/keeper.ts'
import { wordReasonsWith } from '../i18n/reason-words.ts'
import { Translator } from '../i18n/translator.ts'
import { PrincipalDirectory } from '../identity/directory.ts'
import { createMycelium } from '../mycelium/index.ts'
import { readerLocale } from '../mycelium/reader-locale.ts'
import { DurableOutbox } from '../outbox/durable-outbox.ts'
import { Rhizomorph } from '../rhizomorph/bus.ts'
import { SporeContexts } from '../rhizomorph/contexts.ts'
import { ConversationBook } from '../rhizomorph/conversations.ts'
import { HyphaRegistry } from '../rhizomorph/hyphae.ts'
import { MessageListeners } from '../rhizomorph/listeners.ts'
import { RestrictionBook } from '../rhizomorph/restrictions.ts'
import { RouteMap } from '../rhizomorph/routes.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { Clock } from '../schedule/clock.ts'
import { Scheduler } from '../schedule/scheduler.ts'
import { SporeHoldings } from '../storage/holdings.ts'
import type { PluginStore, Store } from '../store/index.ts'
import { OutboxRows } from '../store/outbox-rows.ts'
import { Regermination } from '../supervision/regermination.ts'
import { snapshotPathOf } from '../supervision/snapshot.ts'
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
  /** The time schedules run by: the system's unless given (tests move their own). */
  readonly clock?: Clock
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
  wordReasonsWith(translator)
  // A spore under a reserved name is dormant; its catalogue must not replace the core's either.
  for (const spore of germination.spores) {
    if (!RESERVED_NAMES.has(spore.name)) translator.addDomain(spore.name, spore.catalogs)
  }
  let mycelium: ((spore: Parameters<CoreRuntime['mycelium']>[0]) => object) | undefined
  let lifecycle: Regermination | undefined
  let supervisor: Supervisor | undefined
  const scheduler = new Scheduler({
    store,
    logger,
    deadlineMs: config.timeouts.handler,
    // Only a spore whose start finished, and that no change is stopping, runs its schedules.
    runnable: (name) => {
      const spore = germination.byName.get(name)
      return spore?.state === 'live' && germination.started.includes(spore) && !lifecycle?.restarting(name)
    },
    ...(options.clock ? { clock: options.clock } : {}),
  })
  const hyphae = new HyphaRegistry({ germination, deadlines: config.timeouts, logger })
  const outbox = new DurableOutbox({
    rows: new OutboxRows(store.db),
    send: (target, content, delivery) => hyphae.handOver(target, content, delivery),
    live: (channel) => hyphae.hypha(channel) !== undefined,
    logger,
    maxAgeMs: config.outbox.maxAgeMinutes * 60_000,
    limit: config.outbox.limit,
    answerWithinMs: config.timeouts.send,
    sendWithinMs: config.outbox.sendWithinSeconds * 1000,
  })
  hyphae.sendThrough(outbox)
  const runtime: CoreRuntime = {
    config,
    store,
    plugins,
    logger,
    germination,
    translator,
    routes: new RouteMap(germination),
    hyphae,
    outbox,
    directory: new PrincipalDirectory({ store, defaultRole: config.defaultRole, logger }),
    conversations: new ConversationBook(store),
    restrictions: new RestrictionBook(store),
    listeners: new MessageListeners(),
    holdings: new SporeHoldings({ store, quotas: config.storage, scheduler, timeZone: config.timeZone }),
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
    stopping: (spore) => runtime.holdings.release(spore),
    swapped: (spore) => {
      // Everything keyed by the spore's name is drawn again from its new self.
      contexts.forget(spore.name)
      runtime.listeners.remove(spore.name)
      if (!RESERVED_NAMES.has(spore.name)) translator.addDomain(spore.name, spore.catalogs)
      runtime.routes.refresh()
      roster.refresh(germination.spores)
    },
  })
  // A spore whose host went down is marked down at once (fail closed), then started again.
  hostKeeper.attach({
    isCurrent: (name, instance) => {
      const spore = germination.byName.get(name)
      if (spore === undefined || spore.state === 'disabled') return false
      return spore.instance === instance || (instance === undefined && spore.state === 'dormant')
    },
    markDown: (name, reason) => {
      const spore = germination.byName.get(name)
      if (spore?.state !== 'live') return
      spore.state = 'dormant'
      spore.reason = reason
    },
    restart: (name) => lifecycle!.restart(name),
  })
  // A run that waited for a spore to finish starting is looked at once a change has settled.
  lifecycle.watch(() => scheduler.wake())
  supervisor = new Supervisor({
    germination,
    lifecycle,
    logger,
    // In the reader's language on a surface; in the default one in the log.
    words: (key, params) =>
      translator.render(
        { domain: 'core', key: `supervision.${key}`, params },
        readerLocale(translator.defaultLocale),
      ),
    healthMs: config.timeouts.health,
    snapshot: snapshotPathOf(config.database),
    pollMs: config.supervision.healthEvery,
    backoff: { initialMs: config.supervision.retryFirst, maxMs: config.supervision.retryMax },
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
