import type { MiddlewareHandler } from 'hono'
import type { HttpEnv } from './env.ts'
import { HttpError } from './errors.ts'
import { sameText } from './secrets.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The header a state-changing request carries the session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token'

/**
 * On every state-changing request: the Origin must be this page's own (a browser always sends it
 * on a cross-site POST), and a request with a session must carry its CSRF token. A request
 * without a session (the login itself) has only the Origin check; it can change nobody's state.
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
  if (session !== undefined) {
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
