import type { Logger } from './context.ts'
import type { Translate } from './i18n.ts'
import type { Principal } from './message.ts'

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * septum 1.1: an HTTP route a spore declares in its manifest, mounted at `/spores/<name><path>`.
 * `public` routes (webhooks) need no session; `operator` routes need a web session whose principal
 * may run the spore's route pattern. `code` names a member of the instance's `routes`.
 */
export interface RouteDeclaration {
  readonly method: RouteMethod
  /** Starts with `/`; `:name` segments become params. */
  readonly path: string
  readonly access: 'public' | 'operator'
  readonly code: string
  /** Largest accepted body in bytes; default 65,536. */
  readonly bodyLimit?: number
}

export interface RouteContext {
  readonly params: Readonly<Record<string, string>>
  /** The signed-in operator for `operator` routes; undefined for public ones. */
  readonly principal?: Principal
  readonly logger: Logger
  /** Aborted when the handler deadline passes. */
  readonly signal: AbortSignal
  /** The requester's language: the signed-in person's for `operator` routes, the bot's default otherwise. */
  readonly locale: string
  /** The spore's catalogue, in `locale` unless told otherwise, for the words an answer carries. */
  readonly t: Translate
}

export type RouteHandler = (request: Request, ctx: RouteContext) => Response | Promise<Response>

/** What an instance exposes for its declared routes, keyed by the manifest's `code`. */
export interface RouteHandlers {
  readonly routes?: Readonly<Record<string, RouteHandler>>
}
