import type { Context, MiddlewareHandler } from 'hono'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { HttpEnv } from './env.ts'
import { HttpError } from './errors.ts'
import { matchRoute } from './spore-routes-match.ts'

const KIB = 1024

/**
 * What each kind of request may send, in bytes. Anything without a session gets only what signing
 * in needs: a body is buffered before the route runs, so this is what a stranger can make us hold.
 */
export const BODY_LIMITS = {
  /** `{"ticket": …}`: a ticket is at most 200 characters. */
  login: KIB,
  /** Every API call of a signed-in person: settings, roles, rules, a source with its key. */
  api: 256 * KIB,
  /** One MCP JSON-RPC message from an agent. */
  mcp: 1024 * KIB,
  /** Every other path, which reads no body at all. */
  other: KIB,
} as const

/** Past every limit here and any spore route's (septum caps those at 10 MiB): Bun's own ceiling. */
export const SERVER_BODY_CEILING = Number.MAX_SAFE_INTEGER

const SPORE_PATH = /^\/spores\/([^/]+)(\/.*)?$/

/**
 * The body limit of one request: a spore's route declares its own (none matched: nothing), the
 * API's is the signed-in one only with a session, and MCP's is a message's.
 */
export function bodyLimitOf(runtime: CoreRuntime, c: Context<HttpEnv>): number {
  const path = c.req.path
  if (path === '/api/v1/session/login') return BODY_LIMITS.login
  if (path === '/mcp') return BODY_LIMITS.mcp
  if (path.startsWith('/api/v1/')) return c.get('session') === undefined ? BODY_LIMITS.login : BODY_LIMITS.api
  const spore = SPORE_PATH.exec(path)
  if (spore)
    return sporeRouteLimit(runtime, { name: spore[1]!, below: spore[2] ?? '/', method: c.req.method })
  return BODY_LIMITS.other
}

function sporeRouteLimit(
  runtime: CoreRuntime,
  request: { readonly name: string; readonly below: string; readonly method: string },
): number {
  let name: string
  try {
    name = decodeURIComponent(request.name)
  } catch {
    return 0
  }
  const routes = runtime.germination.byName.get(name)?.manifest?.routes
  const match = routes && matchRoute(routes, request.method, request.below)
  return match ? (match.route.bodyLimit ?? 0) : 0
}

/**
 * Every request's body, read here within its limit before any route sees it: a declared length
 * over the limit is refused before a byte is read, and a chunked body is cut off where it passes
 * the limit. Both answer 413 in the reader's words. The route then reads the bytes kept.
 */
export function bodyLimit(limitOf: (c: Context<HttpEnv>) => number): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const raw = c.req.raw
    const limit = limitOf(c)
    const declared = Number(raw.headers.get('content-length') ?? Number.NaN)
    if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit)
    // A GET or HEAD carries no body a route reads, and a Request cannot be rebuilt with one.
    if (raw.body === null || raw.method === 'GET' || raw.method === 'HEAD') return next()
    const body = await readBounded(raw.body, limit)
    if (body === 'tooLarge') throw tooLarge(limit)
    c.req.raw = new Request(raw.url, {
      method: raw.method,
      headers: raw.headers,
      signal: raw.signal,
      ...(body.byteLength > 0 ? { body } : {}),
    })
    await next()
  }
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'http.error.tooLarge', { params: { limit }, headers: { connection: 'close' } })
}

/** The stream read whole, or 'tooLarge' as soon as it passes `limit` bytes (the rest left unread). */
export async function readBounded(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array | 'tooLarge'> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      return 'tooLarge'
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, size)
}
