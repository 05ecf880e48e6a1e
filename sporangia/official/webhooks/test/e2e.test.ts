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
/** A generic sender's headers: the signature covers `<timestamp>.<body>`. */
function signedNow(body: string, offsetSeconds = 0): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000) + offsetSeconds)
  return { 'x-signature-timestamp': timestamp, 'x-signature-256': sign(`${timestamp}.${body}`) }
}
let deliveries = 0
/** GitHub's headers for one delivery, with an id of its own. */
const github = (event: string, body: string, id = `delivery-${++deliveries}`) => ({
  'x-github-event': event,
  'x-github-delivery': id,
  'x-hub-signature-256': sign(body),
})

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
    const answer = await deliver('/github', body, github('push', body))
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ relayed: 'push', delivered: 2, failed: 0 })
    expect(answer.sent.map(([conversation]) => conversation)).toEqual(['ops', 'club'])
    expect(answer.sent[0]?.[1]).toStartWith('octocat pushed one commit to navino16/mycelo (main)')
    expect(answer.sent[1]?.[1]).toStartWith('octocat a poussé un commit sur navino16/mycelo (main)')
  })

  it('relays a published release, and answers 202 for what it does not relay', async () => {
    const body = JSON.stringify(releasePayload('published'))
    const relayed = await deliver('/github', body, github('release', body))
    expect(relayed.sent[0]?.[1]).toBe(
      'navino16/mycelo released Storage and schedules (v1.1.0): https://github.com/navino16/mycelo/releases/tag/v1.1.0',
    )
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 })
    const ignored = await deliver('/github', ping, github('ping', ping))
    expect([ignored.status, ignored.body, ignored.sent]).toEqual([202, { ignored: 'ping' }, []])
  })

  it('renders a generic JSON delivery through the operator’s template', async () => {
    const body = JSON.stringify({ alert: { name: 'disk full' }, host: 'nas' })
    const answer = await deliver('/generic', body, signedNow(body))
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
    // A generic body signed alone, without the time it was sent, is no signature at all.
    const untimed = '{"host":"nas"}'
    const bodyOnly = await deliver('/generic', untimed, { 'x-signature-256': sign(untimed) })
    expect([bodyOnly.status, bodyOnly.sent]).toEqual([401, []])
    const text = 'not json'
    const garbled = await deliver('/generic', text, signedNow(text))
    expect([garbled.status, garbled.body.error, garbled.sent]).toEqual([
      400,
      'the body is not a JSON object',
      [],
    ])
  })
})

describe('a delivery sent again', () => {
  it('relays a GitHub push once for three deliveries with the same X-GitHub-Delivery', async () => {
    const body = JSON.stringify(pushPayload(2))
    const headers = github('push', body, 'same-delivery')
    const answers = [
      await deliver('/github', body, headers),
      await deliver('/github', body, headers),
      await deliver('/github', body, headers),
    ]
    expect(answers.map((one) => one.status)).toEqual([200, 200, 200])
    expect(answers[0]!.sent).toHaveLength(2)
    for (const again of answers.slice(1))
      expect([again.body, again.sent]).toEqual([{ alreadyReceived: true }, []])
  })

  it('knows a captured GitHub body sent again under new delivery ids', async () => {
    const body = JSON.stringify(pushPayload(3))
    expect((await deliver('/github', body, github('push', body))).sent).toHaveLength(2)
    const replayed = await deliver('/github', body, github('push', body))
    expect([replayed.status, replayed.body, replayed.sent]).toEqual([200, { alreadyReceived: true }, []])
  })

  it('relays a captured generic delivery once, though it is sent five times', async () => {
    const body = JSON.stringify({ alert: { name: 'cpu hot' }, host: 'nas' })
    const headers = signedNow(body)
    const answers = []
    for (let time = 0; time < 5; time++) answers.push(await deliver('/generic', body, headers))
    expect(answers.flatMap((one) => one.sent)).toEqual([
      ['ops', 'Alert cpu hot on nas'],
      ['club', 'Alert cpu hot on nas'],
    ])
    expect(answers.slice(1).map((one) => one.body)).toEqual(Array(4).fill({ alreadyReceived: true }))
  })

  it('refuses a generic delivery signed more than five minutes ago or ahead, and relays nothing', async () => {
    const body = JSON.stringify({ alert: { name: 'old news' }, host: 'nas' })
    for (const offset of [-301, 301]) {
      const stale = await deliver('/generic', body, signedNow(body, offset))
      expect([stale.status, stale.body.error, stale.sent]).toEqual([
        401,
        'the signed timestamp is more than five minutes away from now',
        [],
      ])
    }
  })
})
