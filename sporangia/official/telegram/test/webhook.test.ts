// Webhook mode: the hypha registers <webhookUrl>/spores/telegram/update with a secret token, and its
// route (served here on loopback as the core serves it) hears only calls that carry that token.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { memoryStorage } from '@mycelo/septum/conformance'
import type { TelegramHypha } from '../src/hypha.ts'
import { type FakeTelegram, startFakeTelegram } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

/** The bot's HTTP server, reduced to the one route: POST /spores/telegram/update → routes.update. */
function serveRoute(hypha: () => TelegramHypha) {
  return Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) => {
      const handler = hypha().routes.update
      if (new URL(request.url).pathname !== '/spores/telegram/update' || handler === undefined)
        return new Response('not found', { status: 404 })
      return handler(request, {} as never)
    },
  })
}

let fake: FakeTelegram
let rig: Rig
let server: ReturnType<typeof serveRoute>
const storage = memoryStorage()

beforeAll(async () => {
  fake = startFakeTelegram()
  server = serveRoute(() => rig.hypha)
  rig = await connectedRig({ fake, storage, settings: { webhookUrl: `http://127.0.0.1:${server.port}` } })
})
afterAll(async () => {
  await rig.stop()
  await server.stop(true)
  await fake.stop()
})

describe('webhook mode', () => {
  it('registers the spore route with a secret it made and kept', async () => {
    expect(fake.api.webhook?.url).toBe(`http://127.0.0.1:${server.port}/spores/telegram/update`)
    const secret = fake.api.webhook?.secret
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(await storage.get('webhook.secret')).toBe(secret)
    // No polling beside a webhook.
    expect(fake.api.calls.entries.some((call) => call.method === 'getUpdates')).toBe(false)
  })

  it('hears an update Telegram posts with the secret, and answers 200', async () => {
    const sent = fake.say({ from: fake.world.alice, text: '/help' })
    const heard = await rig.emitted.waitFor((m) => m.messageId === String(sent.message_id))
    expect(heard.text).toBe('/help')
    const delivery = await fake.api.deliveries.waitFor(
      (d) => d.update.message?.message_id === sent.message_id,
    )
    expect(delivery.status).toBe(200)
    expect((await rig.hypha.health()).state).toBe('healthy')
  })

  it('refuses a call without the secret, or with a wrong one, and hears nothing from it', async () => {
    const forged = fake.world.update({
      message: fake.world.message({ from: fake.world.bob, text: '/forged' }),
    })
    expect(await fake.api.forge(forged, undefined)).toBe(401)
    expect(await fake.api.forge(forged, 'not-the-secret')).toBe(401)
    const marker = fake.say({ from: fake.world.alice, text: 'marker' })
    await rig.emitted.waitFor((m) => m.messageId === String(marker.message_id))
    expect(rig.emitted.entries.map((m) => m.text)).not.toContain('/forged')
    expect(
      rig.logs.entries.some((line) => line.message.includes('without the right secret token was refused')),
    ).toBe(true)
  })

  it('answers 400 to a body that is not an update', async () => {
    expect(await fake.api.forge({ hello: 'world' }, fake.api.webhook?.secret)).toBe(400)
  })

  it('keeps its secret across a restart, so Telegram’s webhook stays valid', async () => {
    const before = fake.api.webhook?.secret
    await rig.stop()
    rig = await connectedRig({ fake, storage, settings: { webhookUrl: `http://127.0.0.1:${server.port}` } })
    expect(fake.api.webhook?.secret).toBe(before)
  })

  it('tells in health() what Telegram says of failing deliveries', async () => {
    // Telegram delivers while the hypha is not listening yet: the route answers 503 and Telegram keeps the error.
    const quiet = await connectedRig({
      fake,
      storage,
      listen: false,
      settings: { webhookUrl: `http://127.0.0.1:${server.port}` },
    })
    const previous = rig
    rig = quiet
    try {
      const sent = fake.say({ from: fake.world.alice, text: 'too early' })
      const delivery = await fake.api.deliveries.waitFor(
        (d) => d.update.message?.message_id === sent.message_id,
      )
      expect(delivery.status).toBe(503)
      const health = await quiet.hypha.health()
      expect(health.state).toBe('degraded')
      expect(health.detail).toContain('Telegram says its last delivery to')
      expect(health.detail).toContain('503')
    } finally {
      rig = previous
      await quiet.stop()
    }
  })

  it('refuses to connect when Telegram refuses the webhook, saying what it needs', async () => {
    fake.api.inject('setWebhook', {
      error_code: 400,
      description: 'Bad Request: bad webhook: Failed to resolve host',
    })
    await expect(connectedRig({ fake, settings: { webhookUrl: 'http://bot.invalid' } })).rejects.toThrow(
      'Telegram refused the webhook http://bot.invalid/spores/telegram/update (400 Bad Request: bad webhook: Failed to resolve host)',
    )
  })
})
