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
  DeliveryOptions,
  Health,
  IncomingMessage,
  Invocation,
  OutgoingContent,
  Verdict,
} from './message.ts'

import type { RouteHandlers } from './route.ts'
import type { StorageMigration } from './storage.ts'

type Awaitable<T> = T | Promise<T>

/** A channel: reaches out and touches the outside world. */
export interface Hypha<C = Record<string, unknown>> extends RouteHandlers {
  connect(ctx: HyphaContext<C>): Promise<void>
  listen(): Promise<void>
  stop(): Promise<void>
  /**
   * Resolves once the platform took the message. `delivery.deliveryId` is the same for every try
   * of one message, for a platform that deduplicates; a TemporaryFailure asks the core to try again.
   */
  send(conversationId: string, content: OutgoingContent, delivery?: DeliveryOptions): Promise<void>
  /** Required when the manifest declares `group_membership`. */
  listGroupMembers?(groupId: string): Promise<readonly ChannelIdentity[]>
  health?(): Promise<Health>
}

/** A connected system: `api` is what other spores receive from `ctx.rhiza(name)`. */
export interface Rhiza<Api = unknown, C = Record<string, unknown>> extends RouteHandlers {
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
export interface Enzyme<C = Record<string, unknown>> extends RouteHandlers {
  readonly handlers: Readonly<Record<string, Handler<C>>>
  start?(ctx: EnzymeStartContext<C>): Promise<void>
  stop?(): Promise<void>
}

/** A filter: decides whether a sender may be heard at all. */
export interface Inhibitor<C = Record<string, unknown>> extends RouteHandlers {
  inspect(message: IncomingMessage, ctx: InhibitorContext<C>): Awaitable<Verdict>
  start?(ctx: InhibitorContext<C>): Promise<void>
  stop?(): Promise<void>
}

/**
 * A schema an operation declares its input or output with: any Standard Schema that also
 * implements Standard JSON Schema, such as a Zod 4 schema. Typed structurally, so septum needs no
 * validation library.
 */
export interface OperationSchema<T = unknown> {
  readonly '~standard': {
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: T; readonly issues?: undefined }
      | { readonly issues: readonly { readonly message: string }[] }
      | Promise<
          | { readonly value: T; readonly issues?: undefined }
          | { readonly issues: readonly { readonly message: string }[] }
        >
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>
      readonly output: (options: { readonly target: string }) => Record<string, unknown>
    }
  }
}

/**
 * An Effect Schema (the `effect` package, 4.x), typed structurally so septum needs no Effect: the
 * core exchanges it as its canonical JSON codec, decoding input and encoding output through it.
 */
export interface EffectOperationSchema<T = unknown> {
  readonly '~effect/Schema/Schema': '~effect/Schema/Schema'
  readonly Type: T
}

/** What an operation's input or output may be declared with: either kind of schema. */
export type AnyOperationSchema<T = unknown> = OperationSchema<T> | EffectOperationSchema<T>

/** What one call of an operation knows besides its input; frozen, and never a credential. */
export interface OperationContext {
  /** Fresh for every execute; absent for a call made outside one. */
  readonly executionId?: string
  /** The model's tool call, when the client gave one. */
  readonly toolCallId?: string
  /** Zero-based position of this call within its execute; absent outside one. */
  readonly operationOrdinal?: number
  /** Aborted when the execute passes its deadline or its caller cancels. */
  readonly signal: AbortSignal
}

/**
 * An operation a spore offers agents. `access` is the author's fact about it: `read` observes,
 * `write` (the default) changes something; `confirm: true` asks a person before every call.
 */
export interface SporeOperation<I = unknown, O = unknown> {
  readonly description?: string
  readonly input: AnyOperationSchema<I>
  readonly output: AnyOperationSchema<O>
  readonly access?: 'read' | 'write'
  readonly confirm?: boolean
  run(input: I, context: OperationContext): Awaitable<O>
}

/** Operations by key; a dotted key (`repos.list`) is a nested path. */
export type SporeOperations = Readonly<Record<string, SporeOperation>>

/** The default export of a spore's module. `create()` runs once per germination. */
export interface SporeModule<I, C = Record<string, unknown>> {
  /** Read off the default export only; a named `configSchema` export is ignored. */
  readonly configSchema?: ConfigSchema<C>
  /**
   * Optional: what an agent may call on this spore while it is live, under `env.spores.<name>`.
   * Read off the default export only, like configSchema; a spore without it offers none.
   */
  readonly operations?: SporeOperations
  /** septum 1.1: storage migrations, run once each, in order, in a transaction, before start. */
  readonly migrations?: readonly StorageMigration[]
  create(): Awaitable<I>
}

export type HyphaModule<C = Record<string, unknown>> = SporeModule<Hypha<C>, C>
export type RhizaModule<Api = unknown, C = Record<string, unknown>> = SporeModule<Rhiza<Api, C>, C>
export type EnzymeModule<C = Record<string, unknown>> = SporeModule<Enzyme<C>, C>
export type InhibitorModule<C = Record<string, unknown>> = SporeModule<Inhibitor<C>, C>
