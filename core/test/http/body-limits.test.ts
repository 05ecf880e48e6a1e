// Every route bounds its body while reading it, over real HTTP: a declared length over the limit
// is answered 413 before a byte of the body is sent, a chunked body is cut where it passes the
// limit (the rest never sent), both in the catalogue's words. The routes are taken from the app's
// own routing, so a route added later is tried too.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createHttpApp } from '../../http/app.ts'
import { BODY_LIMITS } from '../../http/body-limit.ts'
import { chunk, type RawAnswer, rawExchange } from './raw-http.ts'
import { HOOKS_RHIZA } from './spore-routes-fixture.ts'
import { type Signed, startWebBot, tokenOf, type WebBot } from './web.ts'

let bot: WebBot
let signed: Signed
beforeAll(async () => {
  bot = await startWebBot({ spores: { hooks: HOOKS_RHIZA } })
  // Before the sign-ins below use up the address's tries.
  signed = await bot.client.signIn(tokenOf(bot.loginLink))
})
afterAll(() => bot.stop())

/** Past every limit a request without a session has: the MCP message's is the largest. */
const OVERSIZED = BODY_LIMITS.mcp + 1

/** Every method and path the app routes, parameters and wildcards filled in, the webhook added. */
function routedPaths(): { method: string; path: string }[] {
  const app = createHttpApp(bot.core.assembly.runtime, {
    mcp: { handleRequest: async () => new Response(null, { status: 204 }), close: async () => {} },
  })
  const seen = new Map<string, { method: string; path: string }>()
  for (const route of [...app.routes, { method: 'POST', path: '/spores/hooks/hook' }]) {
    const method = route.method === 'ALL' ? 'POST' : route.method
    const path = route.path.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x')
    seen.set(`${method} ${path}`, { method, path })
  }
  return [...seen.values()]
}

function expectTooLarge(answer: RawAnswer, where: string) {
  if (answer.status !== 413) throw new Error(`${where} answered ${answer.status}: ${answer.body}`)
  const body = JSON.parse(answer.body) as { key: string; error: string }
  expect(body.key).toBe('http.error.tooLarge')
  expect(body.error).toStartWith('The request body is too large: this address accepts at most ')
}

describe('every route, without a session', () => {
  const routes = () => routedPaths()

  it('covers the API, sign-in, MCP and the spores’ routes', () => {
    const paths = routes().map((route) => `${route.method} ${route.path}`)
    for (const expected of [
      'POST /api/v1/session/login',
      'POST /mcp',
      'POST /spores/hooks/hook',
      'PUT /api/v1/spores/x/settings/x',
    ])
      expect(paths).toContain(expected)
    expect(paths.length).toBeGreaterThan(40)
  })

  it('refuses a declared length over its limit before the body is sent', async () => {
    for (const { method, path } of routes()) {
      const exchange = await rawExchange({
        url: bot.url,
        method,
        path,
        headers: { 'content-type': 'application/json', 'content-length': String(1_000_000_000) },
      })
      // Not a byte of the body is written: the answer must come from the head alone.
      expectTooLarge(await exchange.answer, `${method} ${path}`)
      exchange.close()
    }
  })

  it('cuts a chunked body off where it passes its limit, without waiting for its end', async () => {
    const part = 'a'.repeat(64 * 1024)
    for (const { method, path } of routes().filter((route) => route.method !== 'GET')) {
      const exchange = await rawExchange({
        url: bot.url,
        method,
        path,
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      })
      // Past the limit, but never the last chunk: only a reader that stops at the limit answers.
      for (let sent = 0; sent < OVERSIZED; sent += part.length) await exchange.write(chunk(part))
      expectTooLarge(await exchange.answer, `${method} ${path} (chunked)`)
      exchange.close()
    }
  })
})

describe('each limit fits its route', () => {
  const send = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const exchange = await rawExchange({
      url: bot.url,
      method: 'POST',
      path,
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        origin: bot.url,
        ...headers,
      },
      body,
    })
    return exchange.answer
  }
  const padded = (json: string, size: number) => json + ' '.repeat(size - json.length)

  it('lets a sign-in of its limit through to the ticket check, and refuses one byte more, its words in French too', async () => {
    const ticket = '{"ticket":"WRONGCODE1"}'
    expect((await send('/api/v1/session/login', padded(ticket, BODY_LIMITS.login))).status).toBe(401)
    expectTooLarge(await send('/api/v1/session/login', padded(ticket, BODY_LIMITS.login + 1)), 'sign-in')
    const translator = bot.core.assembly.runtime.translator
    expect(
      translator.render({ domain: 'core', key: 'http.error.tooLarge', params: { limit: 1024 } }, 'fr'),
    ).toStartWith('Le corps de la requête est trop grand')
  })

  it('gives a spore’s route the limit its manifest declares', async () => {
    expect((await send('/spores/hooks/hook', padded('{}', 64))).status).toBe(401)
    expectTooLarge(await send('/spores/hooks/hook', padded('{}', 65)), 'the webhook')
  })

  it('gives a signed-in person the API’s limit, and a stranger only the sign-in’s', async () => {
    const value = JSON.stringify({ value: 'x'.repeat(100 * 1024) })
    const path = '/api/v1/spores/admin/settings/colour'
    const asked = async (body: string, session: boolean) => {
      const exchange = await rawExchange({
        url: bot.url,
        method: 'PUT',
        path,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          origin: bot.url,
          ...(session ? { cookie: signed.cookie, 'x-csrf-token': signed.csrf } : {}),
        },
        body,
      })
      return exchange.answer
    }
    // Read whole and judged: the admin spore has no setting of that name.
    expect((await asked(value, true)).status).toBe(422)
    expectTooLarge(await asked(padded(value, BODY_LIMITS.api + 1), true), 'a signed-in PUT')
    expectTooLarge(await asked(value, false), 'a stranger’s PUT')
  })
})
