// The routes the admin page reads beside the operator API, over real HTTP on loopback: its words,
// the bot at a glance, what each spore needs, a role's preview, a form's compiled validators, what
// the session may do, and the page itself under the security headers.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { flattenCatalog } from '@mycelo/septum'
import { parse } from 'yaml'
import { CORE_TRANSLATIONS } from '../../boot/catalogues.ts'
import { MetricsRegistry } from '../../http/metrics.ts'
import { startHttp } from '../../http/server.ts'
import { loginTickets } from '../../http/tickets.ts'
import { MYCELO_VERSION } from '../../operations/backup/version.ts'
import { VAULT } from './api/spores.ts'
import { type Signed, startWebBot, tokenOf, type WebBot, WebClient } from './web.ts'

let bot: WebBot
let owner: Signed
let moderator: Signed

beforeAll(async () => {
  bot = await startWebBot({
    spores: { vault: VAULT },
    settings: { vault: { token: 'kept-secret-1' } },
    roles: { moderator: ['admin.plugins', 'admin.health'] },
    grants: { mod: ['moderator'] },
  })
  await bot.core.say('hello', { from: 'mod' })
  owner = await bot.client.signIn(tokenOf(bot.loginLink))
  const { store, directory } = bot.core.assembly.runtime
  const modId = directory.resolve({ channel: 'chat', externalId: 'mod' }).id
  moderator = await bot.client.signIn(
    loginTickets(store).issue({ principalId: modId, form: 'link', now: bot.clock.now }).secret,
  )
})

afterAll(() => bot?.stop())

describe('what the session may do', () => {
  test("the owner's answer lists every guarded action, logs included", async () => {
    const answer = await bot.client.send('/api/v1/session', { session: owner })
    const allowed = answer.body.allowed as string[]
    expect(allowed).toContain('admin.enable')
    expect(allowed).toContain('admin.install')
    expect(allowed).toContain('admin.logs')
  })

  test("a moderator's answer lists exactly what their role covers", async () => {
    const answer = await bot.client.send('/api/v1/session', { session: moderator })
    expect(answer.body.allowed).toEqual(['admin.health', 'admin.plugins'])
  })
})

describe('GET /api/v1/catalogue', () => {
  test("answers the page's words in the session's language, as ICU source text", async () => {
    const answer = await bot.client.send('/api/v1/catalogue', { session: owner })
    expect(answer.status).toBe(200)
    expect(answer.body.locale).toBe('en')
    const messages = answer.body.messages as Record<string, string>
    expect(messages['nav.overview']).toBe('Overview')
    expect(messages['overview.liveOf']).toBe('{live} of {total}')
    // Only the page's keys travel: nothing else the core says.
    expect(Object.keys(messages).some((key) => key.startsWith('http.'))).toBe(false)
  })

  test('French on request, a regional variant reads its language, an unknown one the default', async () => {
    const fr = await bot.client.send('/api/v1/catalogue?locale=fr', { session: owner })
    expect((fr.body.messages as Record<string, string>)['nav.overview']).toBe('Vue d’ensemble')
    const canada = await bot.client.send('/api/v1/catalogue?locale=fr-CA', { session: owner })
    expect(canada.body.locale).toBe('fr')
    const unknown = await bot.client.send('/api/v1/catalogue?locale=tlh', { session: owner })
    expect(unknown.body.locale).toBe('en')
    expect(unknown.body.locales).toEqual(expect.arrayContaining(['en', 'fr']))
  })

  test('every page key ships in English and in French', () => {
    const keys = (locale: string) =>
      [
        ...flattenCatalog(
          locale,
          parse(readFileSync(join(CORE_TRANSLATIONS, 'core', `${locale}.yaml`), 'utf8')),
        ).keys(),
      ]
        .filter((key) => key.startsWith('page.'))
        .sort()
    expect(keys('en').length).toBeGreaterThan(100)
    expect(keys('fr')).toEqual(keys('en'))
  })

  test('asks for a session: without one it is a 401', async () => {
    const answer = await bot.client.send('/api/v1/catalogue')
    expect(answer.status).toBe(401)
    expect(answer.body.key).toBe('http.error.unauthenticated')
  })
})

describe('GET /api/v1/status', () => {
  test('the version, the start and the messages of the last minute', async () => {
    const answer = await bot.client.send('/api/v1/status', { session: moderator })
    expect(answer.status).toBe(200)
    expect(answer.body.version).toBe(MYCELO_VERSION)
    expect(Date.parse(String(answer.body.startedAt))).toBeLessThanOrEqual(Date.now())
    expect(typeof answer.body.uptimeSeconds).toBe('number')
    // This server's counter is not fed by the bus: no message, none per minute.
    expect(answer.body.messagesPerMinute).toBe(0)
  })
})

describe('messages per minute', () => {
  test('counts what the bus reports as handled', async () => {
    const metrics = new MetricsRegistry()
    const server = startHttp(bot.core.assembly.runtime, { metrics })
    try {
      const client = new WebClient(server.url)
      const signed = await client.signIn(
        loginTickets(bot.core.assembly.runtime.store).issue({
          principalId: owner.principalId,
          form: 'link',
          now: Date.now(),
        }).secret,
      )
      for (let count = 0; count < 3; count++) metrics.handled(0.002)
      const answer = await client.send('/api/v1/status', { session: signed })
      expect(answer.body.messagesHandled).toBe(3)
      expect(answer.body.messagesPerMinute).toBeGreaterThan(0)
    } finally {
      await server.stop()
    }
  })
})

describe('GET /api/v1/spores-needs', () => {
  test("each spore's requirements: the admin spore asks the bot itself for scopes", async () => {
    const answer = await bot.client.send('/api/v1/spores-needs', { session: owner })
    const spores = answer.body.spores as {
      name: string
      requires: { rhizas: string[]; scopes: string[] }[]
      commands: string[]
    }[]
    const admin = spores.find((spore) => spore.name === 'admin')!
    expect(admin.requires[0]!.rhizas).toEqual(['mycelium'])
    expect(admin.requires[0]!.scopes).toContain('plugins.toggle')
    expect(admin.commands).toContain('enable')
    const vault = spores.find((spore) => spore.name === 'vault')!
    expect(vault.requires).toEqual([])
  })
})

describe('GET /api/v1/commands', () => {
  test('says which commands a set of role patterns allows', async () => {
    const answer = await bot.client.send('/api/v1/commands?patterns=vault.*,admin.plugins', {
      session: owner,
    })
    const commands = answer.body.commands as { qualified: string; allowed: boolean }[]
    expect(commands.find((command) => command.qualified === 'vault.peek')!.allowed).toBe(true)
    expect(commands.find((command) => command.qualified === 'admin.plugins')!.allowed).toBe(true)
    expect(commands.find((command) => command.qualified === 'admin.enable')!.allowed).toBe(false)
  })

  test('is guarded as /roles is in chat', async () => {
    const answer = await bot.client.send('/api/v1/commands', { session: moderator })
    expect(answer.status).toBe(403)
    expect(answer.body.key).toBe('http.error.notAllowed')
  })
})

describe('GET /api/v1/spores/:name/form/validators.js', () => {
  test("a script module of the form's validators that runs without compiling code", async () => {
    const response = await fetch(`${bot.url}/api/v1/spores/vault/form/validators.js`, {
      headers: { cookie: owner.cookie },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/javascript')
    const text = await response.text()
    expect(text).not.toContain('kept-secret-1')
    const file = join(tmpdir(), `mycelo-validators-${process.pid}.mjs`)
    writeFileSync(file, text)
    try {
      const validators = (await import(file)) as Record<string, (data: unknown) => boolean>
      const [validate] = Object.values(validators)
      expect(validate!({ token: 'x', port: 8080 })).toBe(true)
      expect(validate!({ token: 'x', port: 1.5 })).toBe(false)
    } finally {
      rmSync(file, { force: true })
    }
  })

  test('an unknown spore is a 404, and a session without /form a 403', async () => {
    const unknown = await bot.client.send('/api/v1/spores/nothing/form/validators.js', { session: owner })
    expect(unknown.status).toBe(404)
    expect(unknown.body.key).toBe('api.sporeUnknown')
    const refused = await bot.client.send('/api/v1/spores/vault/form/validators.js', { session: moderator })
    expect(refused.status).toBe(403)
  })
})

describe('the page itself', () => {
  test('/ answers the bundled document under the security headers, its script from this origin', async () => {
    const response = await fetch(`${bot.url}/`)
    expect(response.status).toBe(200)
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    const html = await response.text()
    // No inline script: the only script is a file the bundle serves.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    const script = /<script[^>]*src="([^"]+)"/.exec(html)?.[1]
    expect(script).toBeDefined()
    const bundle = await fetch(new URL(script!, bot.url))
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get('content-type')).toContain('javascript')
    // The document as Bun bundles it, without the headers, is at no path anyone could guess.
    expect((await fetch(`${bot.url}/_page/`)).status).toBe(404)
  })
})
