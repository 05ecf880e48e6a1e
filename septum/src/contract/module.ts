import type { ConfigSchema } from './config.ts'
import type {
  EnzymeContext,
  EnzymeStartContext,
  HyphaContext,
  InhibitorContext,
  RhizaContext,
} from './context.ts'
import type {
  ChannelIdentity,
  Health,
  IncomingMessage,
  Invocation,
  OutgoingContent,
  Verdict,
} from './message.ts'

type Awaitable<T> = T | Promise<T>

/** A channel: reaches out and touches the outside world. */
export interface Hypha<C = Record<string, unknown>> {
  connect(ctx: HyphaContext<C>): Promise<void>
  listen(): Promise<void>
  stop(): Promise<void>
  send(conversationId: string, content: OutgoingContent): Promise<void>
  /** Required when the manifest declares `group_membership`. */
  listGroupMembers?(groupId: string): Promise<readonly ChannelIdentity[]>
  health?(): Promise<Health>
}

/** A connected system: `api` is what other spores receive from `ctx.rhiza(name)`. */
export interface Rhiza<Api = unknown, C = Record<string, unknown>> {
  start(ctx: RhizaContext<C>): Promise<void>
  stop(): Promise<void>
  /** Reports the system's state; should report a failure rather than throw. */
  health(): Promise<Health>
  readonly api: Api
}

export type Handler<C = Record<string, unknown>> = (
  invocation: Invocation,
  ctx: EnzymeContext<C>,
) => Awaitable<void>

/** Commands: `handlers` is keyed by the names the manifest's `code:` fields reference. */
export interface Enzyme<C = Record<string, unknown>> {
  readonly handlers: Readonly<Record<string, Handler<C>>>
  start?(ctx: EnzymeStartContext<C>): Promise<void>
  stop?(): Promise<void>
}

/** A filter: decides whether a sender may be heard at all. */
export interface Inhibitor<C = Record<string, unknown>> {
  inspect(message: IncomingMessage, ctx: InhibitorContext<C>): Awaitable<Verdict>
  start?(ctx: InhibitorContext<C>): Promise<void>
  stop?(): Promise<void>
}

/** The default export of a spore's module. `create()` runs once per germination. */
export interface SporeModule<I, C = Record<string, unknown>> {
  /** Read off the default export only; a named `configSchema` export is ignored. */
  readonly configSchema?: ConfigSchema<C>
  create(): Awaitable<I>
}

export type HyphaModule<C = Record<string, unknown>> = SporeModule<Hypha<C>, C>
export type RhizaModule<Api = unknown, C = Record<string, unknown>> = SporeModule<Rhiza<Api, C>, C>
export type EnzymeModule<C = Record<string, unknown>> = SporeModule<Enzyme<C>, C>
export type InhibitorModule<C = Record<string, unknown>> = SporeModule<Inhibitor<C>, C>
