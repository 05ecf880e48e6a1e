// The Host allowlist and the Origin check over real HTTP: a DNS name rebound to the bot's address
// reaches nothing (421, in words), not even what needs no sign-in; an Origin must match the page's
// scheme, host and port, not just its host.
import { afterEach, describe, expect, it } from 'bun:test'
import { allowedHostsOf, hostAllowed } from '../../http/request-guard.ts'
import { rawExchange } from './raw-http.ts'
import { HOOKS_RHIZA } from './spore-routes-fixture.ts'
import { startWebBot, type WebBot } from './web.ts'

let bot: WebBot | undefined
afterEach(async () => {
  await bot?.stop()
  bot = undefined
})

const port = (web: WebBot) => new URL(web.url).port

async function ask(
  web: WebBot,
  options: { method?: string; path: string; host: string; origin?: string; body?: string },
) {
  const body = options.body ?? ''
  const exchange = await rawExchange({
    url: web.url,
    method: options.method ?? (body === '' ? 'GET' : 'POST'),
    path: options.path,
    headers: {
      host: options.host,
      'content-type': 'application/json',
      'content-length': String(body.length),
      ...(options.origin ? { origin: options.origin } : {}),
    },
    body,
  })
  const answer = await exchange.answer
  exchange.close()
  return {
    status: answer.status,
    json: answer.body.startsWith('{') ? (JSON.parse(answer.body) as Record<string, string>) : {},
  }
}

const GUESS = '{"ticket":"WRONGCODE1"}'

describe('the Host a request names', () => {
  it('by default, answers the bound address and localhost, and 421 for any other name on every path', async () => {
    bot = await startWebBot({ spores: { hooks: HOOKS_RHIZA } })
    const web = bot
    expect((await ask(web, { path: '/api/v1/session', host: `127.0.0.1:${port(web)}` })).status).toBe(401)
    expect((await ask(web, { path: '/api/v1/session', host: `localhost:${port(web)}` })).status).toBe(401)
    for (const [method, path, body] of [
      ['GET', '/login', ''],
      ['GET', '/healthz', ''],
      ['POST', '/api/v1/session/login', GUESS],
      ['POST', '/spores/hooks/hook', '{}'],
      ['POST', '/mcp', '{}'],
      ['GET', '/nowhere', ''],
    ] as const) {
      const answer = await ask(web, {
        method,
        path,
        host: `rebound.attacker.example:${port(web)}`,
        body,
        origin: `http://rebound.attacker.example:${port(web)}`,
      })
      expect(answer.status).toBe(421)
      expect(answer.json.key).toBe('http.error.misdirected')
      expect(answer.json.error).toBe(
        `This bot does not answer to the name rebound.attacker.example:${port(web)}. Open the page at the address the bot printed, or add the name to http.allowedHosts in mycelo.yaml.`,
      )
    }
    expect(
      web.core.assembly.runtime.translator.render(
        { domain: 'core', key: 'http.error.misdirected', params: { host: 'x' } },
        'fr',
      ),
    ).toStartWith('Ce bot ne répond pas au nom x.')
  })

  it('answers only the names http.allowedHosts lists once it is set, with or without their port', async () => {
    bot = await startWebBot({ http: '  allowedHosts: [bot.lan, "box.lan:8443"]\n' })
    const web = bot
    expect((await ask(web, { path: '/api/v1/session', host: `bot.lan:${port(web)}` })).status).toBe(401)
    expect((await ask(web, { path: '/api/v1/session', host: 'box.lan:8443' })).status).toBe(401)
    expect((await ask(web, { path: '/api/v1/session', host: `box.lan:${port(web)}` })).status).toBe(421)
    expect((await ask(web, { path: '/api/v1/session', host: `localhost:${port(web)}` })).status).toBe(421)
  })

  it('adds the public URL’s host, and takes its scheme as the page’s own', async () => {
    bot = await startWebBot({ http: '  publicUrl: https://bot.example.org\n' })
    const web = bot
    const login = { path: '/api/v1/session/login', host: 'bot.example.org', body: GUESS }
    expect((await ask(web, { ...login, origin: 'https://bot.example.org' })).status).toBe(401)
    expect((await ask(web, { ...login, origin: 'http://bot.example.org' })).json.key).toBe(
      'http.error.origin',
    )
    expect(
      (await ask(web, { ...login, host: 'other.example.org', origin: 'https://other.example.org' })).status,
    ).toBe(421)
  })

  it('lets an address through on a bot bound to every interface, but never a name it was not given', () => {
    const everywhere = allowedHostsOf({ bind: '0.0.0.0', publicUrl: undefined, allowedHosts: undefined })
    expect(hostAllowed(everywhere, '192.168.1.20:8780')).toBe(true)
    expect(hostAllowed(everywhere, '[fe80::1]:8780')).toBe(true)
    expect(hostAllowed(everywhere, 'localhost:8780')).toBe(true)
    expect(hostAllowed(everywhere, 'rebound.attacker.example:8780')).toBe(false)
  })
})

describe('the Origin of a state-changing request', () => {
  it('must match the page’s scheme, host and port, not its host alone', async () => {
    bot = await startWebBot()
    const web = bot
    const host = `127.0.0.1:${port(web)}`
    const login = { path: '/api/v1/session/login', host, body: GUESS }
    expect((await ask(web, { ...login, origin: `http://${host}` })).status).toBe(401)
    for (const origin of [
      `https://${host}`,
      `http://127.0.0.1:${Number(port(web)) + 1}`,
      'http://127.0.0.1',
      'null',
    ]) {
      const answer = await ask(web, { ...login, origin })
      expect(answer.status).toBe(403)
      expect(answer.json.key).toBe('http.error.origin')
    }
  })
})
