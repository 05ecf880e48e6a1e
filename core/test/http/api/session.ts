// TEST ONLY: a session port that takes the principal from a request header, standing in for the
// server's real sessions (one-time links, cookies, CSRF) so the API's own rules can be tested alone.
// It answers the same way the real one must: 401 without a session, 403 when the roles lack the
// pattern, and every route run as the principal on the `web` channel.
import type { MiddlewareHandler } from 'hono'
import type { ApiEnv, AuditEntry, AuditPort, AuditQuery, SessionPort } from '../../../http/api/index.ts'
import { guardOf, patternsAllow } from '../../../identity/patterns.ts'
import { actingAs } from '../../../mycelium/actor.ts'
import type { CoreRuntime } from '../../../rhizomorph/runtime.ts'

/** The header naming the principal a test request acts as. */
export const TEST_PRINCIPAL = 'x-test-principal'
/** The header choosing the reader's locale (the real session takes the principal's). */
export const TEST_LOCALE = 'x-test-locale'

/** The session middleware's stand-in: an unknown or missing principal is no session. */
export function testSession(runtime: CoreRuntime): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const principalId = c.req.header(TEST_PRINCIPAL)
    const person = principalId ? runtime.directory.load(principalId) : undefined
    if (principalId === undefined || person === undefined)
      return c.json({ error: 'no session', key: '' }, 401)
    c.set('principalId', principalId)
    c.set('locale', c.req.header(TEST_LOCALE) ?? runtime.config.defaultLocale)
    await next()
  }
}

export function testSessionPort(runtime: CoreRuntime): SessionPort {
  const allows: SessionPort['allows'] = (c, pattern) => {
    const [plugin = '', command = ''] = pattern.split('.')
    const patterns = runtime.directory.load(c.get('principalId'))?.patterns ?? new Set<string>()
    return patternsAllow(patterns, guardOf(plugin, command))
  }
  return {
    allows,
    requireCommand(pattern) {
      return async (c, next) => {
        if (!allows(c, pattern)) {
          const ref = { domain: 'core', key: 'api.forbidden', params: { pattern } }
          return c.json({ error: runtime.translator.render(ref, c.get('locale')), key: ref.key }, 403)
        }
        await next()
      }
    },
    actAsSession: (c, work) =>
      actingAs({ kind: 'principal', principalId: c.get('principalId'), channel: 'web', spore: 'web' }, work),
  }
}

/** An audit log stand-in: answers its entries and records what it was asked. */
export function testAudit(entries: readonly AuditEntry[]): AuditPort & { readonly asked: AuditQuery[] } {
  const asked: AuditQuery[] = []
  return {
    asked,
    list(query) {
      asked.push(query)
      return entries.slice(0, query.limit)
    },
  }
}
