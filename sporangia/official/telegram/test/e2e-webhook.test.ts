// Webhook mode in the real core: Telegram posts to <webhookUrl>/spores/telegram/update, a reverse
// proxy (as an operator runs one for https) passes it to the bot's own HTTP server, the core's
// public spore route hands it to the hypha, and the answer goes back through the Bot API.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { startWebBot, type WebBot } from '../../../../core/test/http/web.ts'
import { realSpore } from '../../../../core/test/support/real-spores.ts'
import { type FakeTelegram, startFakeTelegram } from './fake/index.ts'

let fake: FakeTelegram
let bot: WebBot
let upstream = ''
const proxy = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const url = new URL(request.url)
    return fetch(`${upstream}${url.pathname}`, {
      method: request.method,
      headers: request.headers,
      body: await request.arrayBuffer(),
    })
  },
})

beforeAll(async () => {
  fake = startFakeTelegram()
  bot = await startWebBot({
    spores: {
      telegram: realSpore(join(import.meta.dir, '..')),
      help: realSpore('help'),
    },
    settings: {
      telegram: { token: fake.token, apiRoot: fake.apiRoot, webhookUrl: `http://127.0.0.1:${proxy.port}` },
    },
  })
  upstream = bot.url
})
afterAll(async () => {
  await bot?.stop()
  await fake?.stop()
  await proxy.stop(true)
})

describe('telegram by webhook in the real core', () => {
  it('registers the route and answers what Telegram posts there', async () => {
    expect(fake.api.webhook?.url).toBe(`http://127.0.0.1:${proxy.port}/spores/telegram/update`)
    const asked = fake.say({ from: fake.world.alice, text: '/help' })
    const delivery = await fake.api.deliveries.waitFor(
      (d) => d.update.message?.message_id === asked.message_id,
      10_000,
    )
    expect(delivery.status).toBe(200)
    const answer = await fake.api.sent.waitFor((m) => m.chat.id === asked.chat.id, 10_000)
    expect('text' in answer && answer.text).toContain('/help')
  })

  it('refuses a post without Telegram’s secret token with 401, through the core', async () => {
    const forged = fake.world.update({ message: fake.world.message({ from: fake.world.bob, text: '/help' }) })
    const response = await fetch(`${bot.url}/spores/telegram/update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'guessed' },
      body: JSON.stringify(forged),
    })
    expect(response.status).toBe(401)
  })
})
