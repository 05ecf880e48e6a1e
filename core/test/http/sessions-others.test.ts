// "Sign out everywhere else" over the real server: every other session of the person ends at
// once, the one asking stays, and nobody else's session is touched.
import { afterEach, expect, it } from 'bun:test'
import { codeIn, startWebBot, tokenOf, type WebBot } from './web.ts'

let bot: WebBot | undefined
afterEach(async () => {
  await bot?.stop()
  bot = undefined
})

it('ends every other session of the person and keeps this one', async () => {
  bot = await startWebBot({ roles: { member: ['admin.web'] }, grants: { ana: ['member'] } })
  const { client, core } = bot
  const ana = await client.signIn(codeIn((await core.ask('/web', { from: 'ana' }))[0])!)
  const here = await client.signIn(tokenOf(bot.loginLink))
  const laptop = await client.signIn(codeIn((await core.ask('/web'))[0])!)
  const phone = await client.signIn(codeIn((await core.ask('/web'))[0])!)
  expect(
    ((await client.send('/api/v1/session/sessions', { session: here })).body.sessions as unknown[]).length,
  ).toBe(3)

  const ended = await client.send('/api/v1/session/sessions/others', { method: 'DELETE', session: here })
  expect(ended).toMatchObject({ status: 200, body: { revoked: 2 } })
  expect((await client.send('/api/v1/session', { session: laptop })).status).toBe(401)
  expect((await client.send('/api/v1/session', { session: phone })).status).toBe(401)
  expect((await client.send('/api/v1/session', { session: ana })).status).toBe(200)
  const left = (await client.send('/api/v1/session/sessions', { session: here })).body.sessions
  expect(left).toEqual([expect.objectContaining({ current: true })])
  // Asked again with nothing else open, it ends nothing.
  expect(
    (await client.send('/api/v1/session/sessions/others', { method: 'DELETE', session: here })).body,
  ).toEqual({ revoked: 0 })
})

it('needs a session and the CSRF token, like every write', async () => {
  bot = await startWebBot()
  const { client } = bot
  expect((await client.send('/api/v1/session/sessions/others', { method: 'DELETE' })).status).toBe(401)
  const here = await client.signIn(tokenOf(bot.loginLink))
  const forged = await client.send('/api/v1/session/sessions/others', {
    method: 'DELETE',
    session: here,
    csrf: null,
  })
  expect(forged).toMatchObject({ status: 403, body: { key: 'http.error.csrf' } })
})
