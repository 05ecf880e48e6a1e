import { type Principal, type RouteContext, type RouteHandler, readableDomains } from '@mycelo/septum'
import type { Context, MiddlewareHandler } from 'hono'
import { ownMember } from '../germination/implementation.ts'
import type { GerminatedSpore } from '../germination/index.ts'
import { sporeTranslate } from '../i18n/spore-translate.ts'
import { actingAs } from '../mycelium/actor.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { DeadlineExceeded, logExpiry, raceDeadline } from '../supervision/deadline.ts'
import type { HttpEnv } from './env.ts'
import { HttpError } from './errors.ts'
import { allows } from './session-guard.ts'
import { bindSessionIdentity } from './spore-routes-identity.ts'
import { matchRoute, type RouteMatch } from './spore-routes-match.ts'
import { RouteStreams } from './spore-routes-streams.ts'

/** Where spores' routes live: `/spores/<name>` and everything below it. */
export const SPORE_ROUTE_PATHS = ['/spores/:spore', '/spores/:spore/*'] as const

/**
 * The role pattern that guards a spore's `operator` routes: `<spore>.routes`, in the same
 * `plugin.command` form a page action's guard takes, so `*` and `<spore>.*` cover it too.
 */
export function routePattern(spore: string): string {
  return `${spore}.routes`
}

export interface SporeRouteHandlers {
  /** Before the session and CSRF checks: answers public routes (webhooks) and unknown ones. */
  readonly early: MiddlewareHandler<HttpEnv>
  /** After them: answers operator routes, for a session whose roles allow `<spore>.routes`. */
  readonly guarded: MiddlewareHandler<HttpEnv>
}

/**
 * The routes of every live spore, looked up at each request, so an enable, a disable or a reload
 * takes effect on the next one; a route of a spore not live is a 404 at once.
 */
export function sporeRouteHandlers(
  runtime: CoreRuntime,
  streams: RouteStreams = new RouteStreams(),
): SporeRouteHandlers {
  return {
    async early(c, next) {
      // The server is stopping: no route starts, so none can hold the shut-down open.
      if (streams.closed) throw new HttpError(404, 'http.error.notFound')
      const found = routeOf(runtime, c)
      if (found.match.route.access === 'public') return answer(runtime, c, { ...found, streams })
      await next()
    },
    async guarded(c) {
      const found = routeOf(runtime, c)
      const patterns = c.get('patterns')
      const principalId = c.get('principalId')
      if (patterns === undefined || principalId === undefined) {
        throw new HttpError(401, 'http.error.unauthenticated')
      }
      const pattern = routePattern(found.spore.name)
      if (!allows(c, pattern)) {
        throw new HttpError(403, 'http.error.routeNotAllowed', {
          params: { spore: found.spore.name, pattern },
        })
      }
      // A hypha's page speaks as the signed-in person: its channel identity must be theirs first.
      if (
        found.spore.kind === 'hypha' &&
        !bindSessionIdentity(runtime, { hypha: found.spore.name, principalId })
      ) {
        throw new HttpError(409, 'http.error.identityTaken', { params: { spore: found.spore.name } })
      }
      const principal = runtime.directory.load(principalId)?.principal
      if (principal === undefined) throw new HttpError(401, 'http.error.unauthenticated')
      const actor = { kind: 'principal', principalId, channel: 'web', spore: found.spore.name } as const
      return actingAs(actor, () => answer(runtime, c, { ...found, principal, streams }))
    },
  }
}

interface Found {
  readonly spore: GerminatedSpore
  readonly match: RouteMatch
  readonly handler: RouteHandler
  readonly table: object
}

function routeOf(runtime: CoreRuntime, c: Context<HttpEnv>): Found {
  const name = c.req.param('spore') ?? ''
  const spore = runtime.germination.byName.get(name)
  const table = liveRoutes(runtime, spore)
  const prefix = `/spores/${name}`
  const below = c.req.path.startsWith(prefix) ? c.req.path.slice(prefix.length) : c.req.path
  const match = spore?.manifest?.routes && matchRoute(spore.manifest.routes, c.req.method, below || '/')
  const handler = table && match ? ownMember(table, match.route.code) : undefined
  if (spore === undefined || table === undefined || !match || typeof handler !== 'function') {
    throw new HttpError(404, 'http.error.notFound')
  }
  return { spore, match, handler: handler as RouteHandler, table }
}

/** The instance's `routes` while the spore is live and no change is stopping or starting it. */
function liveRoutes(runtime: CoreRuntime, spore: GerminatedSpore | undefined): object | undefined {
  if (spore === undefined || spore.state !== 'live' || runtime.lifecycle.restarting(spore.name))
    return undefined
  const instance = spore.instance as { routes?: unknown } | undefined
  const routes = instance?.routes
  return typeof routes === 'object' && routes !== null ? routes : undefined
}

/** Runs the handler under the handler deadline. */
async function answer(
  runtime: CoreRuntime,
  c: Context<HttpEnv>,
  found: Found & { readonly principal?: Principal; readonly streams: RouteStreams },
): Promise<Response> {
  const { spore, match, handler, table } = found
  // Its body was read within the route's own bodyLimit before any route ran (body-limit.ts).
  const request = c.req.raw
  const step = `route ${match.route.method} ${match.route.path}`
  const logger = runtime.logger.child({
    spore: spore.name,
    route: `${match.route.method} ${match.route.path}`,
  })
  const controller = new AbortController()
  // The session's locale for an operator route (set by readSession); the default for a webhook.
  const locale = found.principal ? c.get('locale') : runtime.config.defaultLocale
  const t = sporeTranslate({
    translator: runtime.translator,
    spore: spore.name,
    domains: readableDomains(spore.name, spore.manifest?.requires),
    locale: () => locale,
    logger,
  })
  const ctx: RouteContext = {
    params: match.params,
    logger,
    signal: controller.signal,
    locale,
    t,
    ...(found.principal ? { principal: found.principal } : {}),
  }
  let response: unknown
  try {
    response = await raceDeadline(
      Promise.resolve().then(() => handler.call(table, request, ctx)),
      {
        step,
        ms: runtime.config.timeouts.handler,
        onExpired: (expiry) => {
          logExpiry(runtime.logger, spore.name)(expiry)
          controller.abort(expiry)
        },
      },
    )
  } catch (error) {
    if (error instanceof DeadlineExceeded) throw new HttpError(504, 'http.error.routeTimeout')
    runtime.logger.error('a route handler failed', {
      spore: spore.name,
      route: step,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    })
    throw new HttpError(500, 'http.error.routeFailed')
  }
  if (!(response instanceof Response)) {
    runtime.logger.error('a route handler answered something other than a Response', {
      spore: spore.name,
      route: step,
    })
    throw new HttpError(500, 'http.error.routeFailed')
  }
  return found.streams.track(response)
}
