// The operator API under /api/v1: one route per operator operation, each guarded by the command
// pattern that guards it in chat, run as the session's principal, and answered from the same
// mycelium functions chat uses. The server mounts it behind its session middleware.
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import type { HttpEnv } from '../env.ts'
import { answerError } from '../errors.ts'
import { agentKeyRoutes } from './agent-keys.ts'
import { auditRoutes } from './audit.ts'
import { readBody } from './body.ts'
import { catalogueRoutes } from './catalogue.ts'
import { commandRoutes } from './commands.ts'
import { connectRoutes } from './connect.ts'
import { conversationRoutes } from './conversations.ts'
import { ApiEvents, type LogTap } from './events.ts'
import { exportRoutes } from './export.ts'
import { formValidatorRoutes } from './form-validator.ts'
import { healthRoutes } from './health.ts'
import { installRoutes } from './installs.ts'
import { liveRoutes } from './live.ts'
import { localeRoutes } from './locale.ts'
import { openApiDocument } from './openapi.ts'
import { peopleRoutes } from './people.ts'
import type { ApiDeps, ApiRoute, ReloadPort } from './route.ts'
import { ruleRoutes } from './rules.ts'
import { type ApiEnv, type AuditPort, HttpError, type SessionPort } from './session-port.ts'
import { sourceRoutes } from './sources.ts'
import { sporeRoutes } from './spores.ts'
import { type MessageCount, statusRoutes } from './status.ts'

export { ApiEvents, type LogTap } from './events.ts'
export {
  type ApiEnv,
  type AuditEntry,
  type AuditPort,
  type AuditQuery,
  HttpError,
  type SessionPort,
} from './session-port.ts'

export interface ApiPorts {
  readonly session: SessionPort
  readonly audit: AuditPort
  /** The hub /events reads; give one to announce changes made elsewhere (supervision). */
  readonly events?: ApiEvents
  /** The logger's tap, for log lines on /events when no hub is given. */
  readonly logs?: LogTap
  readonly reload?: ReloadPort
  /** The bus's message counter, for the messages-per-minute the page's overview shows. */
  readonly messages?: MessageCount
}

const API_VERSION = '1.0.0'

/** Every route, in the order they are mounted and documented. */
export function apiRouteTable(deps: ApiDeps & { messages?: MessageCount }): ApiRoute[] {
  return [
    ...sporeRoutes(deps),
    ...connectRoutes(deps),
    ...statusRoutes(deps),
    ...formValidatorRoutes(deps),
    ...commandRoutes(deps),
    ...sourceRoutes(deps),
    ...installRoutes(deps),
    ...peopleRoutes(deps),
    ...ruleRoutes(deps),
    ...healthRoutes(deps),
    ...conversationRoutes(deps),
    ...localeRoutes(deps),
    ...auditRoutes(deps),
    ...agentKeyRoutes(deps),
    ...exportRoutes(deps),
    ...liveRoutes(deps),
    ...catalogueRoutes(deps),
  ]
}

/** The API's routes, each behind the command the mycelium's guard table gives it. */
export function apiRoutes(runtime: CoreRuntime, ports: ApiPorts): Hono<ApiEnv> {
  const events = ports.events ?? new ApiEvents(runtime, ports.logs)
  const { session } = ports
  const deps: ApiDeps = {
    runtime,
    events,
    session,
    audit: ports.audit,
    ...(ports.reload ? { reload: ports.reload } : {}),
  }
  const table = apiRouteTable({ ...deps, ...(ports.messages ? { messages: ports.messages } : {}) })
  const app = new Hono<ApiEnv>()
  const document = openApiDocument(table, API_VERSION)
  app.get('/openapi.json', (c) => c.json(document))
  for (const entry of table) {
    const guard: MiddlewareHandler<ApiEnv> = entry.command
      ? session.requireCommand(entry.command)
      : (_c, next) => next()
    app.on(entry.method.toUpperCase(), entry.path, guard, (c) =>
      session.actAsSession(c, async () => {
        let body: unknown
        if (entry.body) {
          const reading = await readBody(runtime, c, entry.body)
          if (!reading.ok) return reading.answer
          body = reading.value
        }
        return entry.handle({
          c,
          body,
          param: (name) => (c.req.param() as Record<string, string>)[name] ?? '',
          principalId: c.get('principalId'),
          locale: c.get('locale'),
        })
      }),
    )
  }
  app.onError((error, c) => {
    const locale = c.get('locale') ?? runtime.config.defaultLocale
    if (error instanceof HttpError) return answerError(runtime)(error, c as unknown as Context<HttpEnv>)
    runtime.logger.error('the operator API failed on a request', {
      method: c.req.method,
      path: c.req.path,
      error: error instanceof Error ? error.message : String(error),
    })
    const key = 'api.fault'
    return c.json({ error: runtime.translator.render({ domain: 'core', key }, locale), key }, 500)
  })
  return app
}
