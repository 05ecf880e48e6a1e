import type { MiddlewareHandler } from 'hono'
import type { HttpEnv } from './env.ts'
import { HttpError } from './errors.ts'
import { sameText } from './secrets.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The header a state-changing request carries the session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token'
const SIGN_IN_PATH = '/api/v1/session/login'

/**
 * On every state-changing request: the Origin must be this page's own (a browser always sends it
 * on a cross-site POST), and a request with a session must carry its CSRF token. A request
 * without a session, and the sign-in itself, have only the Origin check: a sign-in changes nobody
 * else's state, and a forged one from another site is stopped by its Origin.
 */
export const originAndCsrf: MiddlewareHandler<HttpEnv> = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next()
  const origin = c.req.header('origin')
  const host = c.req.header('host')
  const own = new URL(c.req.url)
  // Compare with the Host the browser used, so a reverse proxy's rewritten URL does not matter.
  const expected = host === undefined ? own.host : host
  if (origin === undefined || origin === 'null' || hostOf(origin) !== expected) {
    throw new HttpError(403, 'http.error.origin')
  }
  const session = c.get('session')
  // Signing in replaces whatever session the browser holds, so a stale one's token is not asked for.
  if (session !== undefined && c.req.path !== SIGN_IN_PATH) {
    const sent = c.req.header(CSRF_HEADER)
    if (sent === undefined || !sameText(sent, session.csrfToken)) throw new HttpError(403, 'http.error.csrf')
  }
  await next()
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host
  } catch {
    return undefined
  }
}
