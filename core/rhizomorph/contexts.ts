import {
  type Capabilities,
  type EnzymeContext,
  type EnzymeStartContext,
  type HyphaContext,
  type IncomingMessage,
  type InhibitorContext,
  type OutgoingContent,
  type PushTarget,
  readableDomains,
  type SporeContext,
  type Translate,
} from '@mycelo/septum'
import { type ContextFactory, type GerminatedSpore, sporeContext } from '../germination/index.ts'
import { markAhead } from '../hosts/call-kinds.ts'
import { hostKeeper } from '../hosts/keeper.ts'
import { isShared, markBound, markLayered, markShared } from '../hosts/shared-values.ts'
import { sporeTranslate } from '../i18n/spore-translate.ts'
import type { PrincipalSnapshot } from '../identity/directory.ts'
import type { CoreRuntime } from './runtime.ts'

/** Reader locales a spore's `t` is kept for. */
const READER_LOCALES_KEPT = 64

/** Where a hypha's `emit` goes: the message path, which never throws back into the hypha. */
export type Emitter = (hypha: string, message: unknown) => Promise<void>

/**
 * Builds every context a spore receives. The per-spore part is made once; a handler's context adds
 * the message's reader, channel and locale on top of the enzyme's start context.
 */
export class SporeContexts implements ContextFactory {
  readonly #runtime: CoreRuntime
  readonly #emit: Emitter
  readonly #bases = new Map<string, SporeContext>()
  readonly #starts = new Map<string, EnzymeStartContext>()
  readonly #inhibitors = new Map<string, InhibitorContext>()
  readonly #domains = new Map<string, ReadonlySet<string>>()
  /** Per spore, its `t` in each reader's locale: the same few locales come back at every message. */
  readonly #readerT = new Map<string, Map<string, Translate>>()

  constructor(runtime: CoreRuntime, emit: Emitter) {
    this.#runtime = runtime
    this.#emit = emit
  }

  /** Drops the contexts made for a spore's former self: its next one gets its own settings. */
  forget(name: string): void {
    this.#bases.delete(name)
    this.#starts.delete(name)
    this.#inhibitors.delete(name)
    this.#domains.delete(name)
    this.#readerT.delete(name)
  }

  /** Its storage migrations, just before it starts. */
  migrate(spore: GerminatedSpore): string | undefined {
    return this.#runtime.holdings.migrate(spore)
  }

  hypha(spore: GerminatedSpore): HyphaContext {
    const emit = this.#emit
    const connection = this.#runtime.supervisor.reportsFor(spore)
    return { ...this.#base(spore), emit: (message) => emit(spore.name, message), connection }
  }

  rhiza(spore: GerminatedSpore): SporeContext {
    return this.#base(spore)
  }

  enzymeStart(spore: GerminatedSpore): EnzymeStartContext {
    return this.#starts.get(spore.name) ?? this.#newStart(spore)
  }

  /**
   * Made once per spore. Apart from enzymeStart, which every command served calls: JSC makes the
   * scope a function's closures capture whenever the function is entered, made or not.
   */
  #newStart(spore: GerminatedSpore): EnzymeStartContext {
    const runtime = this.#runtime
    const base = this.#base(spore)
    const context: EnzymeStartContext = {
      ...base,
      t: this.#translate(spore, base, () => runtime.config.defaultLocale),
      push: (target, content) => runtime.hyphae.send(target, content),
      capabilitiesOf: (channel) => runtime.hyphae.capabilitiesOf(channel),
      on: (event, listener) => {
        if (event === 'message') runtime.listeners.add(spore.name, listener)
      },
      localeFor: async (target: PushTarget) =>
        runtime.conversations.localeOf(target.channel, target.conversationId) ?? runtime.config.defaultLocale,
    }
    // An isolated enzyme's host keeps its copy: each handler's context then crosses as what it adds.
    if (hostKeeper.hostOf(spore.instance) !== undefined) markShared(context)
    this.#starts.set(spore.name, context)
    return context
  }

  /**
   * A handler's context: the start context plus who is asking, where, and in which language. Its
   * members are named one by one rather than spread: one is made for every command served.
   */
  handler(spore: GerminatedSpore, turn: Turn, capabilities: Capabilities): EnzymeContext {
    const start = this.enzymeStart(spore)
    const { message, principal, locale } = turn
    const context: EnzymeContext = {
      config: start.config,
      logger: start.logger,
      rhiza: start.rhiza,
      has: start.has,
      storage: start.storage,
      schedule: start.schedule,
      push: start.push,
      capabilitiesOf: start.capabilitiesOf,
      on: start.on,
      localeFor: start.localeFor,
      t: this.#readerTranslate(spore, locale),
      reply: replyTo(this.#runtime.hyphae, message),
      principal: principal.principal,
      capabilities,
      locale,
    }
    if (isShared(start)) {
      // Across a host: the start context's id, what this message adds, and one reply handle for all.
      const target = { channel: message.channel, conversationId: message.conversationId }
      // A reply the outbox would take now may go ahead: refused after all, it fails the handler (see markAhead).
      const send = this.#runtime.outbox.accepts(message.channel) ? this.#sendAhead : this.#send
      markBound(context.reply, { fn: send, args: [target] })
      markLayered(context, start)
    }
    return context
  }

  /** Sends to a conversation: what every isolated handler's `reply` is, bound to its message's. */
  readonly #send = (target: PushTarget, content: OutgoingContent) =>
    this.#runtime.hyphae.send(target, content)

  /** The same, for a handler whose host may count it accepted at once (see handler()). */
  readonly #sendAhead = markAhead((target: PushTarget, content: OutgoingContent) =>
    this.#runtime.hyphae.send(target, content),
  )

  inhibitor(spore: GerminatedSpore): InhibitorContext {
    const cached = this.#inhibitors.get(spore.name)
    if (cached) return cached
    const runtime = this.#runtime
    const base = this.#base(spore)
    const context: InhibitorContext = {
      ...base,
      // Admission runs before any reader is known, so an inhibitor always speaks the default.
      t: this.#translate(spore, base, () => runtime.config.defaultLocale),
      groupMembers: (channel, groupId) => runtime.hyphae.groupMembers(channel, groupId),
      requireCapability(channel, capability) {
        if (!runtime.hyphae.hypha(channel)) {
          throw new Error(
            `channel "${channel}" is not live, so it cannot enforce a rule needing ${capability}`,
          )
        }
        if (!runtime.hyphae.capabilitiesOf(channel).has(capability)) {
          throw new Error(`channel "${channel}" lacks ${capability}, so it cannot enforce this rule`)
        }
      },
    }
    this.#inhibitors.set(spore.name, context)
    return context
  }

  #base(spore: GerminatedSpore): SporeContext {
    const cached = this.#bases.get(spore.name)
    if (cached) return cached
    const runtime = this.#runtime
    const base = sporeContext(spore, {
      germination: runtime.germination,
      logger: runtime.logger,
      mycelium: (s) => runtime.mycelium(s),
      storage: (s) => runtime.holdings.storageOf(s.name),
      schedule: (s) => runtime.holdings.scheduleOf(s),
    })
    this.#bases.set(spore.name, base)
    return base
  }

  #domainsOf(spore: GerminatedSpore): ReadonlySet<string> {
    let domains = this.#domains.get(spore.name)
    if (!domains) {
      domains = readableDomains(spore.name, spore.manifest?.requires)
      this.#domains.set(spore.name, domains)
    }
    return domains
  }

  #readerTranslate(spore: GerminatedSpore, locale: string): Translate {
    let byLocale = this.#readerT.get(spore.name)
    if (byLocale === undefined) {
      byLocale = new Map()
      this.#readerT.set(spore.name, byLocale)
    }
    return byLocale.get(locale) ?? this.#newReaderTranslate(spore, byLocale, locale)
  }

  /** Apart from #readerTranslate for the same reason as #newStart: its closure's scope. */
  #newReaderTranslate(spore: GerminatedSpore, byLocale: Map<string, Translate>, locale: string): Translate {
    const t = this.#translate(spore, this.#base(spore), () => locale)
    // Locales are few; the bound only guards against a store full of odd ones.
    if (byLocale.size >= READER_LOCALES_KEPT) byLocale.clear()
    byLocale.set(locale, t)
    return t
  }

  #translate(spore: GerminatedSpore, base: SporeContext, locale: () => string) {
    return sporeTranslate({
      translator: this.#runtime.translator,
      spore: spore.name,
      domains: this.#domainsOf(spore),
      locale,
      logger: base.logger,
    })
  }
}

/** A handler's `reply`: the one closure a command served makes, over no more than it needs. */
function replyTo(hyphae: CoreRuntime['hyphae'], message: IncomingMessage): EnzymeContext['reply'] {
  return (content) =>
    hyphae.send({ channel: message.channel, conversationId: message.conversationId }, content)
}

/** One message on its way to a handler. */
export interface Turn {
  readonly message: IncomingMessage
  readonly principal: PrincipalSnapshot
  readonly locale: string
}
