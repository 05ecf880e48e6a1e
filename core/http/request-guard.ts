import { isIP } from 'node:net'
import type { Context, MiddlewareHandler } from 'hono'
import type { MyceloConfig } from '../boot/config.ts'
import type { HttpEnv } from './env.ts'
import { HttpError } from './errors.ts'
import { sameText } from './secrets.ts'

type HttpConfig = MyceloConfig['http']

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The header a state-changing request carries the session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token'
export const SIGN_IN_PATH = '/api/v1/session/login'

/**
 * On every state-changing request: the Origin must be this page's own (a browser always sends it
 * on a cross-site POST), and a request with a session must carry its CSRF token. A request
 * without a session, and the sign-in itself, have only the Origin check: a sign-in changes nobody
 * else's state, and a forged one from another site is stopped by its Origin.
 */
export function originAndCsrf(
  http: Pick<HttpConfig, 'publicUrl' | 'secureCookies'>,
): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next()
    const origin = c.req.header('origin')
    if (origin === undefined || origin === 'null' || originOf(origin) !== expectedOrigin(c, http)) {
      throw new HttpError(403, 'http.error.origin')
    }
    await csrf(c, next)
  }
}

/**
 * The page's own origin, scheme, host and port: the Host the browser used (a reverse proxy's
 * rewritten URL does not matter), over https when the public URL says so for that host, or when
 * the cookies are Secure (a proxy terminates TLS in front), over the request's own scheme otherwise.
 */
function expectedOrigin(c: Context<HttpEnv>, http: Pick<HttpConfig, 'publicUrl' | 'secureCookies'>): string {
  const own = new URL(c.req.url)
  const host = c.req.header('host') ?? own.host
  const published = http.publicUrl === undefined ? undefined : new URL(http.publicUrl)
  const scheme =
    published !== undefined && published.host === host.toLowerCase()
      ? published.protocol
      : http.secureCookies
        ? 'https:'
        : own.protocol
  return originOf(`${scheme}//${host}`) ?? ''
}

const csrf: MiddlewareHandler<HttpEnv> = async (c, next) => {
  const session = c.get('session')
  // Signing in replaces whatever session the browser holds, so a stale one's token is not asked for.
  if (session !== undefined && c.req.path !== SIGN_IN_PATH) {
    const sent = c.req.header(CSRF_HEADER)
    if (sent === undefined || !sameText(sent, session.csrfToken)) throw new HttpError(403, 'http.error.csrf')
  }
  await next()
}

/** `https://example.org:443` and `https://example.org` alike; undefined for no URL. */
function originOf(text: string): string | undefined {
  try {
    return new URL(text).origin
  } catch {
    return undefined
  }
}

/**
 * The Hosts a request may name. A bot bound to every interface is reached by whatever address the
 * machine has, so there an IP literal passes too: a rebound DNS name is never one.
 */
export interface HostAllowance {
  readonly names: ReadonlySet<string>
  readonly anyAddress: boolean
}

export function allowedHostsOf(http: Pick<HttpConfig, 'bind' | 'publicUrl' | 'allowedHosts'>): HostAllowance {
  const wildcard = http.bind === '0.0.0.0' || http.bind === '::'
  const names = http.allowedHosts ?? [
    ...(wildcard ? [] : [http.bind.includes(':') ? `[${http.bind}]` : http.bind]),
    'localhost',
    ...(http.publicUrl === undefined ? [] : [new URL(http.publicUrl).host]),
  ]
  return {
    names: new Set(names.map((name) => name.toLowerCase())),
    anyAddress: wildcard && http.allowedHosts === undefined,
  }
}

/** Whether `host` (a Host header) is allowed: its name alone, or with its port, is listed. */
export function hostAllowed(allowance: HostAllowance, host: string): boolean {
  const wanted = host.toLowerCase()
  const name = wanted.replace(/:\d+$/, '')
  if (allowance.names.has(wanted) || allowance.names.has(name)) return true
  return allowance.anyAddress && isIP(name.replace(/^\[|\]$/g, '')) !== 0
}

/**
 * Before everything else: a request naming a Host the bot is not (a DNS name rebound to this
 * address) is answered 421, so a page elsewhere can never talk to the bot through its visitor.
 */
export function hostGuard(allowance: HostAllowance): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const host = c.req.header('host') ?? new URL(c.req.url).host
    if (!hostAllowed(allowance, host))
      throw new HttpError(421, 'http.error.misdirected', { params: { host } })
    await next()
  }
}
