import { Hono } from 'hono'
import type { Mcp } from '../agent/mcp/index.ts'
import { auditLog } from '../audit/log.ts'
import type { Germination } from '../germination/index.ts'
import { pluginsToggle } from '../mycelium/plugins.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { ApiEvents } from './api/events.ts'
import { apiRoutes } from './api/index.ts'
import type { SessionPort } from './api/session-port.ts'
import { bodyLimit, bodyLimitOf } from './body-limit.ts'
import type { HttpEnv } from './env.ts'
import { answerError, HttpError } from './errors.ts'
import { securityHeaders } from './headers.ts'
import { loginPageRoutes } from './login-page.ts'
import { MetricsRegistry } from './metrics.ts'
import { probeRoutes } from './probes.ts'
import { allowedHostsOf, hostGuard, originAndCsrf, SIGN_IN_PATH } from './request-guard.ts'
import { actAsSession, allows, readSession, requireCommand } from './session-guard.ts'
import { loginAttempts, sessionRoutes } from './session-routes.ts'
import { sessionBook } from './sessions.ts'
import { SPORE_ROUTE_PATHS, sporeRouteHandlers } from './spore-routes.ts'
import type { RouteStreams } from './spore-routes-streams.ts'
import { LoginThrottle } from './throttle.ts'

export interface HttpAppOptions {
  /** The clock sessions, tickets and the throttle read; tests move it to expire things. */
  readonly now?: () => number
  /** Fed from the message path (the bus's observe()); a fresh one unless given. */
  readonly metrics?: MetricsRegistry
  /** Why germination was refused, when the bot runs degraded: /readyz says so. */
  readonly refused?: string
  /** The hub the API's /events reads; one of its own unless given (then the giver closes it). */
  readonly events?: ApiEvents
  /** The MCP endpoint for agents, mounted at /mcp when given (its giver closes it). */
  readonly mcp?: Mcp
  /** What spores' routes are still sending; its giver ends them when the server stops. */
  readonly routeStreams?: RouteStreams
  /** The admin page's document, when the server bundles it (core/http/page/serving.ts). */
  readonly page?: () => Promise<string>
}

/**
 * The HTTP surface as one Hono app on one middleware chain — errors, security headers, session,
 * Origin + CSRF — exposed as `fetch(Request)` for Bun.serve and `app.request()` in tests.
 *
 * For the API's routes (core/http/api/): `requireSession` sets `c.get('principalId')` and
 * `c.get('locale')`; `requireCommand(pattern)` refuses unless the principal's roles cover the
 * chat command guarding the same action (each route's `command:`); `actAsSession(c, fn)` runs a
 * mycelium call as that principal (checked by the role ceiling, recorded by the audit log);
 * `HttpError(status, key)` and a refusal (api/answer.ts) answer in the reader's locale.
 */
export function createHttpApp(runtime: CoreRuntime, options: HttpAppOptions = {}): Hono<HttpEnv> {
  const now = options.now ?? Date.now
  const { http } = runtime.config
  const secure = http.secureCookies
  const minute = 60_000
  const sessions = sessionBook(runtime.store, {
    idleMs: http.sessionIdleMinutes * minute,
    absoluteMs: http.sessionMaxMinutes * minute,
  })
  const germination: Germination = runtime.germination
  const app = new Hono<HttpEnv>()
  const answer = answerError(runtime)
  const metrics = options.metrics ?? new MetricsRegistry()
  app.onError(answer)
  app.notFound((c) => answer(new HttpError(404, 'http.error.notFound'), c))
  app.use(hostGuard(allowedHostsOf(http)))
  app.use(securityHeaders)
  // A sign-in counts from here, before its body is read: attempts racing each other are all counted.
  const throttle = new LoginThrottle(now)
  app.use(SIGN_IN_PATH, loginAttempts(throttle))
  app.use(readSession({ runtime, sessions, secure, now }))
  // Every body is read here, within what its route takes, before any route runs.
  app.use(bodyLimit((c) => bodyLimitOf(runtime, c)))
  // Before the page's CSRF check: an agent authenticates every request by its key.
  const { mcp } = options
  if (mcp) app.all('/mcp', (c) => mcp.handleRequest(c.req.raw))
  // Spores' routes: public ones (webhooks) answer before the CSRF check, operator ones after.
  const sporeRoutes = sporeRouteHandlers(runtime, options.routeStreams)
  for (const path of SPORE_ROUTE_PATHS) app.all(path, sporeRoutes.early)
  app.use(originAndCsrf(http))
  for (const path of SPORE_ROUTE_PATHS) app.all(path, sporeRoutes.guarded)
  app.route(
    '/',
    probeRoutes({
      state: () => (options.refused === undefined ? { germination } : { refused: options.refused }),
      store: runtime.store,
      metrics,
      metricsToken: http.metricsToken,
      outbox: () => runtime.outbox.report(),
    }),
  )
  app.route('/', loginPageRoutes(runtime))
  const { page } = options
  // The page asks for its session itself and goes to /login without one.
  if (page) app.get('/', async (c) => c.html(await page()))
  // The API's routes run behind this chain's session: the same guard and actor as every route here.
  const session = { requireCommand, allows, actAsSession } as unknown as SessionPort
  const audit = auditLog(runtime.store)
  const api = apiRoutes(runtime, {
    session,
    audit,
    messages: metrics,
    ...(options.events ? { events: options.events } : {}),
    // The same reload chat's /reload runs, applied to the running bot.
    reload: (spore) => pluginsToggle(runtime, runtime.plugins).reload!(spore),
  })
  app.route('/api/v1/session', sessionRoutes({ runtime, sessions, secure, now }))
  app.route('/api/v1', api)
  return app
}
