import { Hono, type MiddlewareHandler } from 'hono'
import { deleteCookie, setCookie } from 'hono/cookie'
import { z } from 'zod'
import { GUARDED_COMMANDS } from '../mycelium/guards.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { HttpEnv } from './env.ts'
import { HttpError } from './errors.ts'
import { allows, requireSession, sessionCookieName } from './session-guard.ts'
import type { SessionBook } from './sessions.ts'
import type { LoginThrottle } from './throttle.ts'
import { loginTickets } from './tickets.ts'

export interface SessionRouteOptions {
  readonly runtime: CoreRuntime
  readonly sessions: SessionBook
  readonly secure: boolean
  readonly now: () => number
}

const loginBody = z.strictObject({ ticket: z.string().trim().min(1).max(200) })

/**
 * /api/v1/session: sign in with a one-time link or chat code, who am I, sign out, and a person's
 * own sessions, listed and revoked one by one.
 */
export function sessionRoutes(options: SessionRouteOptions): Hono<HttpEnv> {
  const { runtime, sessions, secure, now } = options
  const cookie = sessionCookieName(secure)
  const app = new Hono<HttpEnv>()

  app.post('/login', async (c) => {
    // Counted by loginAttempts before the body was read; a sign-in mounted without it is a fault.
    const attempt = c.get('loginAttempt')
    if (attempt === undefined) throw new Error('a sign-in reached its route without loginAttempts before it')
    const { ticket } = await bodyOf(c.req.raw, loginBody)
    const principalId = loginTickets(runtime.store).redeem(ticket, now())
    // The answer never says which part was wrong.
    if (principalId === undefined) throw new HttpError(401, 'http.error.loginFailed')
    attempt.succeeded()
    const { token, session } = sessions.open(principalId, now())
    setCookie(c, cookie, token, {
      httpOnly: true,
      sameSite: 'Strict',
      secure,
      path: '/',
      expires: new Date(session.expiresAt),
    })
    runtime.logger.info('signed in to the admin page', { principal: principalId, session: session.id })
    return c.json({
      principalId,
      sessionId: session.id,
      csrfToken: session.csrfToken,
      expiresAt: session.expiresAt,
    })
  })

  app.get('/', requireSession, (c) => {
    const session = c.get('session')
    return c.json({
      principalId: session.principalId,
      sessionId: session.id,
      csrfToken: session.csrfToken,
      locale: c.get('locale'),
      expiresAt: session.expiresAt,
      idleExpiresAt: session.idleExpiresAt,
      // What the page may offer: each command of the guard table the principal's roles cover, by the
      // API's own check, so the page shows what the API will do, and no more.
      allowed: GUARDED_COMMANDS.filter((pattern) => allows(c, pattern)),
    })
  })

  app.post('/logout', requireSession, (c) => {
    const session = c.get('session')
    sessions.revoke(session.principalId, session.id)
    deleteCookie(c, cookie, { path: '/', secure })
    return c.json({ ok: true })
  })

  app.get('/sessions', requireSession, (c) => {
    const current = c.get('session').id
    const listed = sessions.list(c.get('principalId'), now())
    return c.json({ sessions: listed.map((session) => ({ ...session, current: session.id === current })) })
  })

  // Declared before /sessions/:id so "others" is never read as a session's id.
  app.delete('/sessions/others', requireSession, (c) => {
    const session = c.get('session')
    const revoked = sessions.revokeOthers(session.principalId, session.id)
    runtime.logger.info('signed out of the admin page everywhere else', {
      principal: session.principalId,
      revoked,
    })
    return c.json({ revoked })
  })

  app.delete('/sessions/:id', requireSession, (c) => {
    if (!sessions.revoke(c.get('principalId'), c.req.param('id'))) {
      throw new HttpError(404, 'http.error.sessionUnknown')
    }
    return c.json({ ok: true })
  })

  return app
}

/**
 * Before a sign-in's body is read: the attempt counts against its address at once, or is refused
 * (429) while the address has used its tries, or too many sign-ins are under way.
 */
export function loginAttempts(throttle: LoginThrottle): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next()
    const started = throttle.begin(addressOf(c.env, c.req.raw))
    if (!started.ok) {
      throw new HttpError(429, 'http.error.throttled', {
        headers: { 'Retry-After': String(Math.ceil(started.waitMs / 1000)) },
      })
    }
    c.set('loginAttempt', started.attempt)
    try {
      await next()
    } finally {
      started.attempt.end()
    }
  }
}

/** A JSON body checked by `schema`; a bad one is a 400 naming the field. */
export async function bodyOf<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown
  try {
    raw = await request.json()
  } catch {
    throw new HttpError(400, 'http.error.badRequest', { params: { problem: 'the body is not JSON' } })
  }
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  const [issue] = parsed.error.issues
  const field = issue?.path.join('.') || 'body'
  throw new HttpError(400, 'http.error.badRequest', {
    params: { problem: `${field}: ${issue?.message ?? 'invalid'}` },
  })
}

/** The peer's address as Bun.serve reports it; in-process requests (tests' app.request) have none. */
function addressOf(env: unknown, request: Request): string {
  const server = env as { requestIP?: (request: Request) => { address: string } | null } | undefined
  return server?.requestIP?.(request)?.address ?? 'unknown'
}
