import {
  type EnzymeStartContext,
  type RouteContext,
  type RouteHandler,
  verifySignature,
} from '@mycelo/septum'
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

/** The raw body, if its signature holds; otherwise the 401 to answer. */
async function signedBody(
  request: Request,
  ctx: StartContext,
  scheme: 'github' | 'generic',
): Promise<string | Response> {
  const body = await request.text()
  const header = request.headers.get(scheme === 'github' ? 'x-hub-signature-256' : 'x-signature-256')
  if (!verifySignature({ secret: ctx.config.secret, body, header, scheme }))
    return answer(401, { error: 'the signature is missing or does not match the configured secret' })
  return body
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
  return {
    async github(request, route) {
      const ctx = live()
      const body = await signedBody(request, ctx, 'github')
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
      const body = await signedBody(request, ctx, 'generic')
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
