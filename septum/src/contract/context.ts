import type { Translate } from './i18n.ts'
import type { ChannelIdentity, IncomingMessage, OutgoingContent, Principal, PushTarget } from './message.ts'
import type { SporeSchedule } from './schedule.ts'
import type { SporeStorage } from './storage.ts'
import type { ChannelCapability } from './vocabulary.ts'

export interface Logger {
  debug(message: string, meta?: Readonly<Record<string, unknown>>): void
  info(message: string, meta?: Readonly<Record<string, unknown>>): void
  warn(message: string, meta?: Readonly<Record<string, unknown>>): void
  error(message: string, meta?: Readonly<Record<string, unknown>>): void
  child(bindings: Readonly<Record<string, unknown>>): Logger
}

/** What one channel can do. */
export interface Capabilities {
  has(capability: ChannelCapability): boolean
  list(): readonly ChannelCapability[]
}

/** Every spore's context: its validated settings, its own logger, and its required rhizas. */
export interface SporeContext<C = Record<string, unknown>> {
  readonly config: C
  readonly logger: Logger
  /** A required rhiza's `api`; `mycelium` answers the methods of the granted scopes. */
  rhiza<T = unknown>(name: string): T
  /** Whether a required rhiza is live; false for an absent optional one. */
  has(name: string): boolean
  /** septum 1.1: the spore's own durable key–value namespace. */
  readonly storage: SporeStorage
  /** septum 1.1: persisted schedules, disposed on stop and reload. */
  readonly schedule: SporeSchedule
}

export interface HyphaContext<C = Record<string, unknown>> extends SporeContext<C> {
  /** Hands a heard message to the core. Never throws into the hypha; resolves once it is handled. */
  emit(message: IncomingMessage): Promise<void>
}

export type RhizaContext<C = Record<string, unknown>> = SporeContext<C>

/** Events an enzyme may observe. `message` fires for every admitted message. */
export interface EnzymeEvents {
  message: (message: IncomingMessage) => void | Promise<void>
}

/** An enzyme's start(): no message exists yet, so no reply, principal, capabilities or locale. */
export interface EnzymeStartContext<C = Record<string, unknown>> extends SporeContext<C> {
  /** Sends to a conversation of the enzyme's choosing. */
  push(target: PushTarget, content: OutgoingContent): Promise<void>
  capabilitiesOf(channel: string): Capabilities
  on<E extends keyof EnzymeEvents>(event: E, listener: EnzymeEvents[E]): void
  /** Falls back to the configured default locale when `locale` is omitted. */
  readonly t: Translate
  /** The target conversation's stored locale, or the configured default. */
  localeFor(target: PushTarget): Promise<string>
}

/** A handler's context: the start context plus the message's own reader and channel. */
export interface EnzymeContext<C = Record<string, unknown>> extends EnzymeStartContext<C> {
  /** Answers in the conversation the message came from. */
  reply(content: OutgoingContent): Promise<void>
  readonly principal: Principal
  /** The emitting channel's capabilities. */
  readonly capabilities: Capabilities
  /** The reader's locale: what `t()` uses when its locale is omitted. */
  readonly locale: string
}

export interface InhibitorContext<C = Record<string, unknown>> extends SporeContext<C> {
  /** Falls back to the configured default locale: admission runs before any reader is known. */
  readonly t: Translate
  /** The members of a group, or null where the channel cannot tell. */
  groupMembers(channel: string, groupId: string): Promise<readonly ChannelIdentity[] | null>
  /** Throws when the channel cannot enforce a rule that depends on this capability. */
  requireCapability(channel: string, capability: ChannelCapability): void
}
