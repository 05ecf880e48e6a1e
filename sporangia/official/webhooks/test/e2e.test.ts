// webhooks inside the real core: deliveries POSTed to its public routes on the bot's own HTTP
// server, signed as GitHub and a generic sender sign them, relayed by ctx.push through the real
// bus to the test channel, each target in its conversation's language.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createHmac } from 'node:crypto'
import { join } from 'node:path'
import { startWebBot, type WebBot } from '../../../../core/test/http/web.ts'
import { realSpore } from '../../../../core/test/support/real-spores.ts'
import { pushPayload, releasePayload } from './payloads.ts'

const SECRET = 'a-long-shared-secret'
const sign = (body: string, secret = SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

let bot: WebBot
beforeAll(async () => {
  bot = await startWebBot({
    spores: { webhooks: realSpore(join(import.meta.dir, '..')) },
    settings: {
      webhooks: {
        secret: SECRET,
        targets: [
          { channel: 'chat', conversationId: 'ops' },
          { channel: 'chat', conversationId: 'club' },
        ],
        template: 'Alert {{alert.name}} on {{host}}',
      },
    },
  })
  // The club reads French: its conversation's own locale.
  await bot.core.ask('/lang-group fr', { group: { id: 'club' } })
})
afterAll(() => bot?.stop())

async function deliver(path: string, body: string, headers: Record<string, string>) {
  const before = bot.core.sent.length
  const response = await fetch(`${bot.url}/spores/webhooks${path}`, { method: 'POST', headers, body })
  const sent = bot.core.sent.slice(before).map((one) => [one.conversationId, one.content.text])
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, sent }
}

describe('webhooks in the real core', () => {
  it('relays a signed GitHub push to every target, each in its own language', async () => {
    const body = JSON.stringify(pushPayload(1))
    const answer = await deliver('/github', body, {
      'x-github-event': 'push',
      'x-hub-signature-256': sign(body),
    })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ relayed: 'push', delivered: 2, failed: 0 })
    expect(answer.sent.map(([conversation]) => conversation)).toEqual(['ops', 'club'])
    expect(answer.sent[0]?.[1]).toStartWith('octocat pushed one commit to navino16/mycelo (main)')
    expect(answer.sent[1]?.[1]).toStartWith('octocat a poussé un commit sur navino16/mycelo (main)')
  })

  it('relays a published release, and answers 202 for what it does not relay', async () => {
    const body = JSON.stringify(releasePayload('published'))
    const relayed = await deliver('/github', body, {
      'x-github-event': 'release',
      'x-hub-signature-256': sign(body),
    })
    expect(relayed.sent[0]?.[1]).toBe(
      'navino16/mycelo released Storage and schedules (v1.1.0): https://github.com/navino16/mycelo/releases/tag/v1.1.0',
    )
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 })
    const ignored = await deliver('/github', ping, {
      'x-github-event': 'ping',
      'x-hub-signature-256': sign(ping),
    })
    expect([ignored.status, ignored.body, ignored.sent]).toEqual([202, { ignored: 'ping' }, []])
  })

  it('renders a generic JSON delivery through the operator’s template', async () => {
    const body = JSON.stringify({ alert: { name: 'disk full' }, host: 'nas' })
    const answer = await deliver('/generic', body, { 'x-signature-256': sign(body) })
    expect(answer.status).toBe(200)
    expect(answer.sent).toEqual([
      ['ops', 'Alert disk full on nas'],
      ['club', 'Alert disk full on nas'],
    ])
  })

  it('refuses a delivery signed with another secret, unsigned, or not JSON, and relays nothing', async () => {
    const body = JSON.stringify(pushPayload(1))
    const forged = await deliver('/github', body, {
      'x-github-event': 'push',
      'x-hub-signature-256': sign(body, 'someone-elses-secret'),
    })
    expect([forged.status, forged.sent]).toEqual([401, []])
    const unsigned = await deliver('/generic', '{"host":"nas"}', {})
    expect([unsigned.status, unsigned.sent]).toEqual([401, []])
    const text = 'not json'
    const garbled = await deliver('/generic', text, { 'x-signature-256': sign(text) })
    expect([garbled.status, garbled.body.error, garbled.sent]).toEqual([
      400,
      'the body is not a JSON object',
      [],
    ])
  })
})
