import type { Server } from 'bun'
import type { Hono } from 'hono'
import type { Mcp } from '../agent/mcp/index.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { principalIdOf } from '../store/index.ts'
import { listenedOn, stoppedListening } from './address.ts'
import { ApiEvents, type LogTap } from './api/events.ts'
import type { HttpAppOptions } from './app.ts'
import { SERVER_BODY_CEILING } from './body-limit.ts'
import type { HttpEnv } from './env.ts'
import { pageServing } from './page/serving.ts'
import { RouteStreams } from './spore-routes-streams.ts'
import { LINK_TTL_MS, loginTickets } from './tickets.ts'

/** The HTTP surface, listening. */
export interface HttpServer {
  /** Where it listens, e.g. `http://127.0.0.1:8780`. */
  readonly url: string
  /** A one-time sign-in link for the owner, good for LINK_TTL_MS; printed at start. */
  readonly loginLink: string | undefined
  stop(): Promise<void>
}

/**
 * Starts Bun.serve on `config.http` with the app, and issues the owner's one-time sign-in link:
 * there is no default password, so this link (or /web in chat) is the first way in.
 */
export function startHttp(
  runtime: CoreRuntime,
  options: HttpAppOptions & { readonly logs?: LogTap } = {},
): HttpServer {
  const { http } = runtime.config
  // Closed at stop, before the store: a live stream must not read a closed database.
  const events = options.events ?? new ApiEvents(runtime, options.logs)
  const mcp = options.mcp ?? lazyMcp(runtime)
  // Ended at stop, like the events: a Chat tab left open must not hold the shut-down.
  const routeStreams = new RouteStreams()
  let server: Server<undefined> | undefined
  // The app (Hono, the API's routes, sessions) is imported at the first request, not at start:
  // a bot nobody opens the page of does not hold it in memory.
  let app: Promise<Hono<HttpEnv>> | undefined
  const loadApp = () =>
    (app ??= import('./app.ts').then(({ createHttpApp }) =>
      createHttpApp(runtime, { ...options, events, mcp, routeStreams, page: () => page.html() }),
    ))
  const fetch = async (request: Request, self: Server<undefined>) => (await loadApp()).fetch(request, self)
  const page = pageServing({ server: () => server!, url: () => url, fetch })
  server = Bun.serve({
    hostname: http.bind,
    port: http.port,
    // Bundles served as built once, never rebuilt per request nor given a reloading client.
    development: false,
    // The port is this bot's or nobody's: without this, Bun with development off binds a port another
    // process listens on (SO_REUSEPORT) and the two share its requests without a word.
    reusePort: false,
    // Each route bounds its own body while reading it (body-limit.ts), so every 413 is worded; Bun's
    // 128 MiB default would otherwise answer first, wordless, and let any route be sent that much.
    maxRequestBodySize: SERVER_BODY_CEILING,
    // The server is passed on as the app's env, so a route can read the peer's address.
    fetch,
  })
  const host = http.bind === '0.0.0.0' || http.bind === '::' ? '127.0.0.1' : (server.hostname ?? http.bind)
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`
  const { channel, userId } = runtime.config.owner
  listenedOn(runtime, url)
  const owner = principalIdOf(runtime.store, { channel, externalId: userId })
  const now = (options.now ?? Date.now)()
  const loginLink =
    owner === undefined
      ? undefined
      : `${url}/login#${loginTickets(runtime.store).issue({ principalId: owner, form: 'link', now }).secret}`
  runtime.logger.info(
    runtime.translator.render(
      {
        domain: 'core',
        key: 'http.listening',
        params: { url, link: loginLink ?? `${url}/login`, minutes: LINK_TTL_MS / 60_000 },
      },
      runtime.config.defaultLocale,
    ),
  )
  return {
    url,
    loginLink,
    async stop() {
      // In-flight requests are let finish; new ones are refused from here on.
      stoppedListening(runtime, url)
      events.close()
      routeStreams.close()
      await mcp.close()
      await server.stop()
    },
  }
}

/**
 * The MCP endpoint, loaded at its first request: the SDK and the sandbox cost memory a bot that no
 * agent talks to should not pay at idle.
 */
function lazyMcp(runtime: CoreRuntime): Mcp {
  let loading: Promise<Mcp> | undefined
  const loaded = () => {
    loading ??= import('../agent/mcp/index.ts').then(({ botMcp, createMcp }) => createMcp(botMcp(runtime)))
    return loading
  }
  return {
    handleRequest: async (request) => (await loaded()).handleRequest(request),
    async close() {
      if (loading) await (await loading).close()
    },
  }
}
