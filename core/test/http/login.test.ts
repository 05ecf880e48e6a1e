import { afterEach, describe, expect, it } from 'bun:test'
import { LOGIN_ATTEMPTS_ALLOWED } from '../../http/throttle.ts'
import { LINK_TTL_MS } from '../../http/tickets.ts'
import { codeIn, startWebBot, tokenOf, type WebBot } from './web.ts'

let bot: WebBot | undefined
afterEach(async () => {
  await bot?.stop()
  bot = undefined
})

const MINUTE = 60_000

describe('signing in with the link printed at start', () => {
  it('opens a session as the owner once, with an HttpOnly, SameSite=Strict cookie that is not Secure over http', async () => {
    bot = await startWebBot()
    const { client } = bot
    expect(bot.loginLink).toStartWith(`${bot.url}/login#`)
    const signed = await client.signIn(tokenOf(bot.loginLink))
    expect(signed.setCookie).toContain('HttpOnly')
    expect(signed.setCookie).toContain('SameSite=Strict')
    expect(signed.setCookie).not.toContain('Secure')
    const owner = bot.core.assembly.runtime.directory.resolve({ channel: 'chat', externalId: 'owner' }).id
    expect(signed.principalId).toBe(owner)
    const me = await client.send('/api/v1/session', { session: signed })
    expect(me.status).toBe(200)
    expect(me.body.principalId).toBe(owner)
    // Good once: the same link opens nothing the second time.
    const again = await client.send('/api/v1/session/login', { body: { ticket: tokenOf(bot.loginLink) } })
    expect(again.status).toBe(401)
    expect(again.body.key).toBe('http.error.loginFailed')
    expect(again.body.error).toContain('/web')
  })

  it('refuses the link once it has expired', async () => {
    bot = await startWebBot()
    bot.clock.now += LINK_TTL_MS + 1
    const answer = await bot.client.send('/api/v1/session/login', {
      body: { ticket: tokenOf(bot.loginLink) },
    })
    expect(answer.status).toBe(401)
    expect(answer.body.key).toBe('http.error.loginFailed')
  })

  it('marks the cookie Secure when the page is served over HTTPS', async () => {
    bot = await startWebBot({ http: '  secureCookies: true\n' })
    // The browser reaches it through a TLS proxy: its Origin is https, on the same host and port.
    const https = bot.url.replace('http:', 'https:')
    const answer = await bot.client.send('/api/v1/session/login', {
      body: { ticket: tokenOf(bot.loginLink) },
      origin: https,
    })
    expect(answer.status).toBe(200)
    const setCookie = answer.headers.get('set-cookie') ?? ''
    expect(setCookie).toContain('Secure')
    expect(setCookie).toStartWith('__Host-mycelo_session=')
  })

  it('throttles failed attempts per address, even for a good ticket once throttled', async () => {
    bot = await startWebBot()
    for (let attempt = 0; attempt < LOGIN_ATTEMPTS_ALLOWED; attempt++) {
      const wrong = await bot.client.send('/api/v1/session/login', { body: { ticket: 'WRONGCODE1' } })
      expect(wrong.status).toBe(401)
    }
    const throttled = await bot.client.send('/api/v1/session/login', {
      body: { ticket: tokenOf(bot.loginLink) },
    })
    expect(throttled.status).toBe(429)
    expect(throttled.body.key).toBe('http.error.throttled')
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
    // The throttled attempt did not spend the link: once the window passes, it still works.
    bot.clock.now += 15 * MINUTE
    expect((await bot.client.signIn(tokenOf(bot.loginLink))).principalId).toBeString()
  })

  it('answers a bad body with a 400 naming the field', async () => {
    bot = await startWebBot()
    const answer = await bot.client.send('/api/v1/session/login', { body: { tiket: 'x' } })
    expect(answer.status).toBe(400)
    expect(answer.body.key).toBe('http.error.badRequest')
  })
})

describe('sessions', () => {
  it('refuses a request without a session, and one after logout (revoked server-side)', async () => {
    bot = await startWebBot()
    const { client } = bot
    const anonymous = await client.send('/api/v1/session')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.key).toBe('http.error.unauthenticated')
    const signed = await client.signIn(tokenOf(bot.loginLink))
    const out = await client.send('/api/v1/session/logout', { method: 'POST', session: signed })
    expect(out.status).toBe(200)
    // The old cookie, replayed, opens nothing: the row is gone, not just the browser's copy.
    expect((await client.send('/api/v1/session', { session: signed })).status).toBe(401)
  })

  it('signs in again over a session the browser still holds, without its token, but not from elsewhere', async () => {
    bot = await startWebBot()
    const { client, core } = bot
    const held = await client.signIn(tokenOf(bot.loginLink))
    const code = codeIn((await core.ask('/web'))[0])!
    // Another site cannot sign the browser in, whatever cookie it holds.
    const forged = await client.send('/api/v1/session/login', {
      body: { ticket: code },
      session: held,
      csrf: null,
      origin: 'https://elsewhere.example',
    })
    expect(forged.status).toBe(403)
    expect(forged.body.key).toBe('http.error.origin')
    // From the page itself, the stale session's CSRF token is not asked for: the sign-in replaces it.
    const again = await client.send('/api/v1/session/login', {
      body: { ticket: code },
      session: held,
      csrf: null,
    })
    expect(again.status).toBe(200)
    expect(again.body.csrfToken).not.toBe(held.csrf)
    // Any other write with that cookie still needs its token.
    const logout = await client.send('/api/v1/session/logout', { method: 'POST', session: held, csrf: null })
    expect(logout.status).toBe(403)
    expect(logout.body.key).toBe('http.error.csrf')
  })

  it("lists a person's sessions and revokes one, leaving the other", async () => {
    bot = await startWebBot()
    const { client, core } = bot
    const first = await client.signIn(tokenOf(bot.loginLink))
    const [reply] = await core.ask('/web')
    const code = /: ([A-Z0-9]{10}) /.exec(reply!)![1]!
    const second = await client.signIn(code)
    const listed = await client.send('/api/v1/session/sessions', { session: first })
    const sessions = listed.body.sessions as { id: string; current: boolean }[]
    expect(sessions).toHaveLength(2)
    const other = sessions.find((session) => !session.current)!
    const revoked = await client.send(`/api/v1/session/sessions/${other.id}`, {
      method: 'DELETE',
      session: first,
    })
    expect(revoked.status).toBe(200)
    expect((await client.send('/api/v1/session', { session: second })).status).toBe(401)
    expect((await client.send('/api/v1/session', { session: first })).status).toBe(200)
    const unknown = await client.send(`/api/v1/session/sessions/${other.id}`, {
      method: 'DELETE',
      session: first,
    })
    expect(unknown.status).toBe(404)
  })

  it('expires a session left idle, and one past its absolute limit however busy', async () => {
    bot = await startWebBot({ http: '  sessionIdleMinutes: 10\n  sessionMaxMinutes: 30\n' })
    const { client, clock } = bot
    const idle = await client.signIn(tokenOf(bot.loginLink))
    clock.now += 10 * MINUTE + 1
    expect((await client.send('/api/v1/session', { session: idle })).status).toBe(401)

    const [reply] = await bot.core.ask('/web')
    const busy = await client.signIn(/: ([A-Z0-9]{10}) /.exec(reply!)![1]!)
    // Used every nine minutes: never idle, yet gone after thirty.
    for (let minutes = 9; minutes < 30; minutes += 9) {
      clock.now += 9 * MINUTE
      expect((await client.send('/api/v1/session', { session: busy })).status).toBe(200)
    }
    clock.now += 4 * MINUTE
    expect((await client.send('/api/v1/session', { session: busy })).status).toBe(401)
  })
})

describe('requests from elsewhere', () => {
  it('refuses a state-changing request from another origin or without one, and one without the CSRF token', async () => {
    bot = await startWebBot()
    const { client } = bot
    const signed = await client.signIn(tokenOf(bot.loginLink))
    const foreign = await client.send('/api/v1/session/logout', {
      method: 'POST',
      session: signed,
      origin: 'https://evil.example',
    })
    expect(foreign.status).toBe(403)
    expect(foreign.body.key).toBe('http.error.origin')
    const none = await client.send('/api/v1/session/logout', {
      method: 'POST',
      session: signed,
      origin: null,
    })
    expect(none.status).toBe(403)
    expect(none.body.key).toBe('http.error.origin')
    const noToken = await client.send('/api/v1/session/logout', {
      method: 'POST',
      session: signed,
      csrf: null,
    })
    expect(noToken.status).toBe(403)
    expect(noToken.body.key).toBe('http.error.csrf')
    const wrongToken = await client.send('/api/v1/session/logout', {
      method: 'POST',
      session: signed,
      csrf: 'nope',
    })
    expect(wrongToken.body.key).toBe('http.error.csrf')
    // None of them logged the session out.
    expect((await client.send('/api/v1/session', { session: signed })).status).toBe(200)
    const login = await client.send('/api/v1/session/login', {
      body: { ticket: 'WRONGCODE1' },
      origin: 'https://evil.example',
    })
    expect(login.status).toBe(403)
  })

  it('sends the security headers on every answer, errors included', async () => {
    bot = await startWebBot()
    for (const path of ['/healthz', '/login', '/api/v1/session', '/nowhere']) {
      const { headers } = await bot.client.send(path)
      const csp = headers.get('content-security-policy') ?? ''
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain('unsafe-inline')
      expect(headers.get('x-content-type-options')).toBe('nosniff')
      expect(headers.get('referrer-policy')).toBe('no-referrer')
      expect(headers.get('x-frame-options')).toBe('DENY')
    }
  })

  it('words an error in the session principal’s language', async () => {
    bot = await startWebBot()
    const { client, core } = bot
    await core.ask('/lang fr')
    const signed = await client.signIn(tokenOf(bot.loginLink))
    const refused = await client.send('/api/v1/session/sessions/none', { method: 'DELETE', session: signed })
    expect(refused.status).toBe(404)
    expect(refused.body.error).toBe('Vous n’avez pas de session de ce nom.')
  })
})
