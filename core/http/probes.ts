import { Hono } from 'hono'
import type { Germination } from '../germination/index.ts'
import type { OutboxReport } from '../outbox/tally.ts'
import type { Store } from '../store/index.ts'
import type { HttpEnv } from './env.ts'
import { HttpError } from './errors.ts'
import type { MetricsRegistry } from './metrics.ts'
import { sameText } from './secrets.ts'

export interface ProbeOptions {
  /** The germination the bot runs, or the refusal that kept it from starting (a degraded state). */
  readonly state: () => { readonly germination: Germination } | { readonly refused: string }
  readonly store: Store
  readonly metrics: MetricsRegistry
  readonly metricsToken: string | undefined
  /** What waits in the outbox and what it dropped, for /metrics. */
  readonly outbox?: () => OutboxReport
}

/**
 * For the box the bot runs on: /healthz (the process answers), /readyz (every enabled spore is
 * live, or 503 with each one's reason), both without a session and saying nothing more; /metrics
 * behind a bearer token, and absent without one.
 */
export function probeRoutes(options: ProbeOptions): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>()
  app.get('/healthz', (c) => c.json({ alive: true }))
  app.get('/readyz', (c) => {
    const state = options.state()
    if ('refused' in state) return c.json({ ready: false, refused: state.refused }, 503)
    const waiting = state.germination.spores
      .filter((spore) => spore.state !== 'live' && spore.state !== 'disabled')
      .map((spore) => ({ name: spore.name, state: spore.state, reason: spore.reason ?? null }))
    return waiting.length === 0 ? c.json({ ready: true }) : c.json({ ready: false, spores: waiting }, 503)
  })
  app.get('/metrics', (c) => {
    const { metricsToken } = options
    if (metricsToken === undefined) throw new HttpError(404, 'http.error.notFound')
    const given = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    if (given === undefined || !sameText(given, metricsToken)) {
      throw new HttpError(401, 'http.error.unauthenticated', { headers: { 'WWW-Authenticate': 'Bearer' } })
    }
    const state = options.state()
    if ('refused' in state) return c.text('', 503)
    const outbox = options.outbox?.()
    const text = options.metrics.render({
      germination: state.germination,
      store: options.store,
      ...(outbox === undefined ? {} : { outbox }),
    })
    return c.text(text, 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' })
  })
  return app
}
