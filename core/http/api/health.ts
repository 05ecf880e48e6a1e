// The supervised health of every live rhiza and reporting channel, as chat's /health reads it.
import { guardOf } from '../../mycelium/guards.ts'
import { healthRead } from '../../mycelium/health.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

export function healthRoutes({ runtime }: ApiDeps): ApiRoute[] {
  const health = healthRead(runtime)
  return [
    route({
      method: 'get',
      path: '/health',
      summary: 'The health each live rhiza and channel reports, asked now',
      guard: guardOf('health.read', 'health'),
      handle: async ({ c }) => c.json({ health: await health.health() }),
    }),
  ]
}
