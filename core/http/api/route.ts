// One operator operation as the API serves it: a method and path, the guard the mycelium's table
// gives the method it calls (the chat command pattern), the body it takes. The same table mounts the routes and writes the OpenAPI document,
// so a route cannot exist without being described.
import type { TranslatableRef } from '@mycelo/septum'
import type { z } from 'zod'
import type { Guard } from '../../mycelium/guards.ts'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import type { ApiEvents } from './events.ts'
import type { ApiContext, AuditPort, SessionPort } from './session-port.ts'

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'

/** What a handler is given: the request, its checked body, and the reader's locale. */
export interface RouteCall<Body> {
  readonly c: ApiContext
  readonly body: Body
  /** Path parameters, decoded. */
  readonly param: (name: string) => string
  readonly principalId: string
  readonly locale: string
}

export interface ApiRoute<Body = unknown> {
  readonly method: Method
  /** Hono's form (`/spores/:name`), under /api/v1. */
  readonly path: string
  /** A line for the OpenAPI document (the page words its own labels from the catalogues). */
  readonly summary: string
  /** From the mycelium's guard table; absent for what any session may read. */
  readonly guard?: Guard
  /** The guard's command pattern, as chat checks it: derived, never written on a route. */
  readonly command?: string
  readonly body?: z.ZodType<Body>
  /** Media types the answer may come as beside JSON (a stream of lines, events). */
  readonly streams?: readonly string[]
  handle(call: RouteCall<Body>): Response | Promise<Response>
}

/** Keeps the body's type between the schema and the handler; the command is the guard's. */
export function route<Body = undefined>(definition: Omit<ApiRoute<Body>, 'command'>): ApiRoute<unknown> {
  const command = definition.guard?.command
  return { ...definition, ...(command === undefined ? {} : { command }) } as unknown as ApiRoute<unknown>
}

/** What every route module is built over. */
export interface ApiDeps {
  readonly runtime: CoreRuntime
  readonly events: ApiEvents
  readonly session: SessionPort
  readonly audit: AuditPort
  /** Re-germinates one spore, when the runtime offers it (live re-germination lands beside this). */
  readonly reload?: ReloadPort
}

/** One spore reloaded in place; a refusal is an Outcome like every mycelium function's. */
export type ReloadPort = (
  spore: string,
) => Promise<{ readonly ok: true } | { readonly ok: false; readonly refusal: TranslatableRef }>
