import { type EnzymeStartContext, ReplayGuard, type RouteContext, type RouteHandler } from '@mycelo/septum'
import type { WebhooksConfig } from './config.ts'
import { cut, fillTemplate, readGitHub, type Wording } from './render.ts'

type StartContext = EnzymeStartContext<WebhooksConfig>

/** How many targets took the message, and how many refused or failed. */
interface Delivery {
  readonly delivered: number
  readonly failed: number
}

const answer = (status: number, body: Record<string, unknown>) => Response.json(body, { status })

/** Sends to every target, each in its own conversation's language; one failing target spares the rest. */
async function deliver(
  ctx: StartContext,
  route: RouteContext,
  text: (locale: string) => string,
): Promise<Delivery> {
  let delivered = 0
  let failed = 0
  for (const target of ctx.config.targets) {
    try {
      await ctx.push(target, { text: text(await ctx.localeFor(target)) })
      delivered++
    } catch (error) {
      failed++
      route.logger.warn('a webhook target could not be reached', { ...target, error: String(error) })
    }
  }
  return { delivered, failed }
}

/** Where each sender puts what makes a delivery one of a kind. */
const SENDERS = {
  // GitHub signs no time; its delivery id is the same on a redelivery.
  github: { signature: 'x-hub-signature-256', id: 'x-github-delivery', timestamp: undefined },
  // A generic sender signs `<timestamp>.<body>`, so a capture is good for the window at most.
  generic: { signature: 'x-signature-256', id: undefined, timestamp: 'x-signature-timestamp' },
} as const

/**
 * The raw body, if its signature holds and it was not received already; otherwise the answer: 401
 * for a bad signature or a signed time outside the window, 200 "already received" for a replay,
 * so a sender retrying a delivery that did arrive stops, and nothing is relayed twice.
 */
async function signedBody(
  request: Request,
  options: { readonly ctx: StartContext; readonly scheme: 'github' | 'generic'; readonly guard: ReplayGuard },
): Promise<string | Response> {
  const { ctx, scheme, guard } = options
  const sender = SENDERS[scheme]
  const body = await request.text()
  const timestamp = sender.timestamp === undefined ? undefined : request.headers.get(sender.timestamp)
  if (sender.timestamp !== undefined && timestamp === null)
    return answer(401, { error: `the ${sender.timestamp} header is missing: sign <timestamp>.<body>` })
  const verdict = guard.verify({
    secret: ctx.config.secret,
    body,
    header: request.headers.get(sender.signature),
    scheme,
    deliveryId: sender.id === undefined ? undefined : request.headers.get(sender.id),
    timestamp,
  })
  if (verdict.ok) return body
  if (verdict.refusal === 'alreadyReceived') return answer(200, { alreadyReceived: true })
  if (verdict.refusal === 'outsideWindow')
    return answer(401, { error: 'the signed timestamp is more than five minutes away from now' })
  return answer(401, { error: 'the signature is missing or does not match the configured secret' })
}

function parsed(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) }
  } catch {
    return { ok: false }
  }
}

/** The routes, bound to the context start() received: a route's own context cannot push. */
export function relayRoutes(context: () => StartContext | undefined): Record<string, RouteHandler> {
  const live = () => {
    const ctx = context()
    if (ctx === undefined) throw new Error('webhooks received a delivery before start()')
    return ctx
  }
  // One per route and per germination: a replay is known for as long as the spore runs.
  const guards = { github: new ReplayGuard(), generic: new ReplayGuard() }
  return {
    async github(request, route) {
      const ctx = live()
      const body = await signedBody(request, { ctx, scheme: 'github', guard: guards.github })
      if (body instanceof Response) return body
      const payload = parsed(body)
      if (!payload.ok) return answer(400, { error: 'the body is not JSON' })
      const event = request.headers.get('x-github-event') ?? ''
      const reading = readGitHub(event, payload.value)
      if (reading.kind === 'malformed')
        return answer(400, { error: `the ${event} payload is not GitHub's: ${reading.problem}` })
      if (reading.kind === 'ignored') return answer(202, { ignored: reading.event })
      const say = (wording: Wording, locale: string) => ctx.t(wording.key, wording.params, locale)
      const delivery = await deliver(ctx, route, (locale) =>
        cut([say(reading.wording, locale), ...reading.lines.map((line) => say(line, locale))].join('\n')),
      )
      return answer(200, { relayed: event, ...delivery })
    },
    async generic(request, route) {
      const ctx = live()
      const body = await signedBody(request, { ctx, scheme: 'generic', guard: guards.generic })
      if (body instanceof Response) return body
      const payload = parsed(body)
      if (!payload.ok || payload.value === null || typeof payload.value !== 'object')
        return answer(400, { error: 'the body is not a JSON object' })
      const text = fillTemplate(ctx.config.template, payload.value)
      if (text.trim() === '') return answer(422, { error: 'the template rendered nothing for this body' })
      const delivery = await deliver(ctx, route, () => text)
      return answer(200, { relayed: 'generic', ...delivery })
    },
  }
}
