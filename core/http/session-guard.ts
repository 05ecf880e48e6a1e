import type { Context, MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { guardOf, patternsAllow } from '../identity/patterns.ts'
import { actingAs } from '../mycelium/actor.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { browserLocale } from './browser-locale.ts'
import type { HttpEnv } from './env.ts'
import { HttpError } from './errors.ts'
import type { SessionBook } from './sessions.ts'

/** The session cookie's name; `__Host-` pins it to this origin when it is Secure. */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-mycelo_session' : 'mycelo_session'
}

export interface SessionGuardOptions {
  readonly runtime: CoreRuntime
  readonly sessions: SessionBook
  readonly secure: boolean
  readonly now: () => number
}

/**
 * Reads the session cookie on every request: when it opens a live session, sets `session`,
 * `principalId` and `locale`; otherwise leaves them unset (requireSession refuses later).
 */
export function readSession(options: SessionGuardOptions): MiddlewareHandler<HttpEnv> {
  const { runtime, sessions, secure, now } = options
  return async (c, next) => {
    // Before sign-in the browser's language is all there is to go by (the sign-in page, its refusals).
    const { defaultLocale } = runtime.config
    c.set(
      'locale',
      browserLocale(c.req.header('accept-language'), runtime.translator.locales(), defaultLocale),
    )
    const token = getCookie(c, sessionCookieName(secure))
    const session = token === undefined ? undefined : sessions.touch(token, now())
    if (session !== undefined) {
      const principal = runtime.directory.load(session.principalId)
      c.set('session', session)
      c.set('principalId', session.principalId)
      c.set('locale', principal?.locale ?? runtime.config.defaultLocale)
      // Read fresh on each request, so a revoked role takes effect at once. A deleted person holds nothing.
      c.set('patterns', principal?.patterns ?? new Set())
    }
    await next()
  }
}

/** Refuses with 401 unless the request carries a live session. */
export const requireSession: MiddlewareHandler<HttpEnv> = async (c, next) => {
  if (c.get('session') === undefined) throw new HttpError(401, 'http.error.unauthenticated')
  await next()
}

/**
 * Refuses with 403 unless the session's principal holds a role pattern covering `pattern`
 * (`plugin.command`, as in chat: `*`, `plugin.*` or the command itself). Implies requireSession.
 * Each API route names the pattern guarding it (core/http/api/*: `command:`).
 */
export function requireCommand(pattern: string): MiddlewareHandler<HttpEnv> {
  // The refusal names the command as chat would ask for it: `/people` for `admin.people`.
  const command = pattern.slice(pattern.indexOf('.') + 1)
  return async (c, next) => {
    if (c.get('patterns') === undefined) throw new HttpError(401, 'http.error.unauthenticated')
    if (!allows(c, pattern)) {
      throw new HttpError(403, 'http.error.notAllowed', { params: { command: `/${command}` } })
    }
    await next()
  }
}

/** Whether the session's principal's roles cover `pattern`: the same check requireCommand makes. */
export function allows(c: Context<HttpEnv>, pattern: string): boolean {
  const [plugin, command] = pattern.split('.', 2) as [string, string]
  const patterns = c.get('patterns')
  return patterns !== undefined && patternsAllow(patterns, guardOf(plugin, command))
}

/** Runs `work` as the session's principal, so the ceiling and the audit see who acts (channel `web`). */
export function actAsSession<T>(c: Context<HttpEnv>, work: () => T): T {
  const principalId = c.get('principalId')
  if (principalId === undefined) throw new HttpError(401, 'http.error.unauthenticated')
  // The session's language travels with the actor: reasons and refusals read in the page's words.
  const locale = c.get('locale')
  return actingAs(
    { kind: 'principal', principalId, channel: 'web', spore: 'web', ...(locale ? { locale } : {}) },
    work,
  )
}
