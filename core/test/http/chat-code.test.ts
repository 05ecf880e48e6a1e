import { afterEach, describe, expect, it } from 'bun:test'
import { CODE_TTL_MS } from '../../http/tickets.ts'
import { codeIn, startWebBot, type WebBot } from './web.ts'

let bot: WebBot | undefined
afterEach(async () => {
  await bot?.stop()
  bot = undefined
})

describe('/web in chat, through the real admin spore and bus', () => {
  it('gives the asking person a code that opens a session acting as them, once', async () => {
    bot = await startWebBot({ roles: { helper: ['admin.web'] }, grants: { alice: ['helper'] } })
    const { core, client } = bot
    const [reply] = await core.ask('/web', { from: 'alice' })
    expect(reply).toContain('Your code for the admin page')
    const code = codeIn(reply)!
    // The address the page really listens on, not the configured port 0.
    expect(reply).toContain(`${bot.url}/login#${code}`)
    const alice = core.assembly.runtime.directory.resolve({ channel: 'chat', externalId: 'alice' }).id
    // Typed in lower case, as a person might.
    const signed = await client.signIn(code.toLowerCase())
    expect(signed.principalId).toBe(alice)
    const again = await client.send('/api/v1/session/login', { body: { ticket: code } })
    expect(again.status).toBe(401)
  })

  it('refuses a code once it has expired', async () => {
    bot = await startWebBot()
    const code = codeIn((await bot.core.ask('/web'))[0])!
    // The code was issued by the real clock, a moment after the test clock was set: a minute covers it.
    bot.clock.now += CODE_TTL_MS + 60_000
    const late = await bot.client.send('/api/v1/session/login', { body: { ticket: code } })
    expect(late.status).toBe(401)
  })

  it('never shows a code in a group', async () => {
    bot = await startWebBot()
    const [reply] = await bot.core.ask('/web', { group: { id: 'g1', name: 'Friends' } })
    expect(reply).toBe('Ask for /web in a direct message: a sign-in code must not be shown to a group.')
    expect(codeIn(reply)).toBeUndefined()
  })

  it('is a command like any other: a role without it gets no code', async () => {
    bot = await startWebBot()
    const [reply] = await bot.core.ask('/web', { from: 'stranger' })
    expect(reply).toContain('not allowed')
  })
})

describe('the session acts with exactly its roles', () => {
  it('lets a session do what its chat command allows, and refuses it what its roles do not cover', async () => {
    bot = await startWebBot({
      roles: { helper: ['admin.web'], speaker: ['admin.web', 'admin.lang'] },
      grants: { alice: ['helper'], bob: ['speaker'] },
    })
    const { core, client } = bot
    const alice = await client.signIn(codeIn((await core.ask('/web', { from: 'alice' }))[0])!)
    const refused = await client.send('/api/v1/me/locale', {
      method: 'PUT',
      body: { locale: 'fr' },
      session: alice,
    })
    expect(refused.status).toBe(403)
    expect(refused.body.key).toBe('http.error.notAllowed')
    expect(refused.body.error).toContain('/lang')

    const bob = await client.signIn(codeIn((await core.ask('/web', { from: 'bob' }))[0])!)
    const done = await client.send('/api/v1/me/locale', {
      method: 'PUT',
      body: { locale: 'fr' },
      session: bob,
    })
    expect(done.status).toBe(200)
    // The change is the chat one: the bot now answers Bob in French, and the page's errors follow.
    const me = await client.send('/api/v1/session', { session: bob })
    expect(me.body.locale).toBe('fr')
    const unknown = await client.send('/api/v1/me/locale', {
      method: 'PUT',
      body: { locale: 'xx' },
      session: bob,
    })
    expect(unknown.status).toBe(422)
    expect(unknown.body.key).toBe('refusal.locale_unavailable')
    expect(unknown.body.error).not.toContain('refusal.')

    // A role taken away in chat takes effect on the page at once.
    await core.ask(`/revoke ${bob.principalId} speaker`)
    const after = await client.send('/api/v1/me/locale', {
      method: 'PUT',
      body: { locale: 'en' },
      session: bob,
    })
    expect(after.status).toBe(403)
  })
})
