// POST /api/v1/connect/:channel: guarded as chat guards what it does (/set to store the settings,
// /enable to switch the channel on), and refused in words for a channel with no connector.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { loginTickets } from '../../http/tickets.ts'
import { type Signed, startWebBot, tokenOf, type WebBot } from './web.ts'

let bot: WebBot
let owner: Signed
let setter: Signed

beforeAll(async () => {
  bot = await startWebBot({ roles: { setter: ['admin.set', 'admin.plugins'] }, grants: { sam: ['setter'] } })
  await bot.core.say('hello', { from: 'sam' })
  const { store, directory } = bot.core.assembly.runtime
  owner = await bot.client.signIn(tokenOf(bot.loginLink))
  const samId = directory.resolve({ channel: 'chat', externalId: 'sam' }).id
  setter = await bot.client.signIn(
    loginTickets(store).issue({ principalId: samId, form: 'link', now: bot.clock.now }).secret,
  )
})
afterAll(() => bot?.stop())

describe('connecting a channel through the API', () => {
  it('needs /enable beside /set, as chat would, and stores nothing without it', async () => {
    const answer = await bot.client.send('/api/v1/connect/discord', {
      session: setter,
      body: { secret: 'a-token' },
    })
    expect(answer.status).toBe(403)
    expect(answer.body.error).toBe('Your roles do not allow this: it needs the command /enable.')
    const none = await bot.client.send('/api/v1/connect/discord', { body: { secret: 'a-token' } })
    expect(none.status).toBe(401)
  })

  it('names the channels it can connect when asked for another', async () => {
    const answer = await bot.client.send('/api/v1/connect/carrier-pigeon', { session: owner, body: {} })
    expect(answer.status).toBe(409)
    expect(answer.body.error).toBe(
      'There is no way to connect carrier-pigeon in one step; these channels have one: discord, signal, telegram, matrix.',
    )
  })
})
