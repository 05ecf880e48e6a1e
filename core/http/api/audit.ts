// The audit log, newest first: who did what, when, and how it ended, on every surface.
import { operatorGuard } from '../../mycelium/guards.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const LIMIT_MAX = 500

export function auditRoutes({ audit }: ApiDeps): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: '/audit',
      summary: 'The audit log, newest first; ?limit=, ?before= (an entry id) and ?principal= narrow it',
      guard: operatorGuard('auditLog'),
      async handle({ c }) {
        const limit = whole(c.req.query('limit'))
        const before = whole(c.req.query('before'))
        const principalId = c.req.query('principal')
        const entries = await audit.list({
          limit: Math.min(limit ?? 100, LIMIT_MAX),
          ...(before !== undefined ? { before } : {}),
          ...(principalId ? { principalId } : {}),
        })
        return c.json({ entries })
      },
    }),
  ]
}

/** A positive whole number from a query string, or nothing: a stray value reads as unasked. */
function whole(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,9}$/.test(text)) return undefined
  const value = Number(text)
  return value > 0 ? value : undefined
}
