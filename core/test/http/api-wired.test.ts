// The operator API behind the real server's session: sign in, then the routes act as that person.
import { afterEach, describe, expect, it } from 'bun:test'
import { startWebBot, tokenOf, type WebBot } from './web.ts'

let bot: WebBot | undefined
afterEach(async () => {
  await bot?.stop()
  bot = undefined
})

describe('the API behind a real web session', () => {
  it('answers the signed-in owner, refuses without a session, and audits a write made through it', async () => {
    bot = await startWebBot()
    const { client } = bot
    expect((await client.send('/api/v1/spores')).status).toBe(401)
    const signed = await client.signIn(tokenOf(bot.loginLink))
    const spores = await client.send('/api/v1/spores', { session: signed })
    expect(spores.status).toBe(200)
    expect(JSON.stringify(spores.body)).toContain('"admin"')
    const unknown = await client.send('/api/v1/spores/ghost/disable', { session: signed, body: {} })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toContain('ghost')
    const openapi = await client.send('/api/v1/openapi.json', { session: signed })
    expect(openapi.status).toBe(200)
    const french = await client.send('/api/v1/me/locale', {
      session: signed,
      method: 'PUT',
      body: { locale: 'fr' },
    })
    expect(french.status).toBe(200)
    const audit = await client.send('/api/v1/audit', { session: signed })
    expect(audit.status).toBe(200)
    const entries = (audit.body as { entries: { method: string; via: string; actor: string }[] }).entries
    expect(entries[0]).toMatchObject({
      method: expect.stringContaining('setPrincipalLocale'),
      via: 'web',
      actor: signed.principalId,
    })
  })
})
