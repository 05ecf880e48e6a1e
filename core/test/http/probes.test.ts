import { afterEach, describe, expect, it } from 'bun:test'
import type { IncomingMessage } from '@mycelo/septum'
import { type CoreWith, startCoreWith } from '../support/boot-core.ts'
import { CHAT_HYPHA } from '../support/runtime.ts'

let core: CoreWith | undefined
afterEach(async () => {
  await core?.stop()
  core = undefined
})

const ECHO = {
  'spore.yaml':
    'kind: enzyme\nname: echo\nseptum: "^1.0"\ncommands:\n  - name: ping\n    description: ping.description\n    respond: pong\n',
}
/** Its start() fails: the spore is dormant, with the reason. */
const BROKEN = {
  'spore.yaml':
    'kind: enzyme\nname: broken\nseptum: "^1.0"\ncommands:\n  - name: moon\n    description: moon.description\n    code: moon\n',
  'src/index.ts':
    "export default { create: () => ({ handlers: { async moon() {} }, async start() { throw new Error('the moon is unreachable') } }) }\n",
  'translations/en.yaml': 'moon:\n  description: Goes to the moon\n',
}
async function boot(config: string, spores: Record<string, Record<string, string>> = {}): Promise<CoreWith> {
  return startCoreWith({
    spores: { chat: CHAT_HYPHA, echo: ECHO, ...spores },
    config: `owner: { channel: chat, userId: owner }\nhttp:\n  port: 0\n${config}`,
  })
}

const urlOf = (started: CoreWith) => started.running.http!.url

function say(started: CoreWith, text: string): Promise<void> {
  const chat = started.running.germination.byName.get('chat')!.instance as {
    say(message: IncomingMessage): Promise<void>
  }
  return chat.say({
    channel: 'chat',
    conversationId: 'dm-owner',
    messageId: `m-${text}`,
    sender: { channel: 'chat', externalId: 'owner' },
    text,
    attachments: [],
    raw: null,
    receivedAt: new Date(),
  })
}

describe('the probes', () => {
  it('starts the server last at start-up, on the configured address, and stops it at shut-down', async () => {
    core = await boot('')
    const url = urlOf(core)
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const printed = core.logs().find((line) => String(line.msg).startsWith('The admin page listens on'))
    expect(String(printed?.msg)).toContain(`${url}/login#`)
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
    await core.stop()
    core = undefined
    expect(fetch(`${url}/healthz`)).rejects.toThrow()
  })

  it('listens on nothing when http.enabled is false', async () => {
    core = await boot('  enabled: false\n')
    expect(core.running.http).toBeUndefined()
  })

  it('answers /healthz and /readyz without a session, saying nothing more', async () => {
    core = await boot('')
    const health = await fetch(`${urlOf(core)}/healthz`)
    expect(await health.json()).toEqual({ alive: true })
    const ready = await fetch(`${urlOf(core)}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ ready: true })
  })

  it('answers /readyz 503 naming each enabled spore that is not live, with its reason', async () => {
    core = await boot('', { broken: BROKEN })
    const ready = await fetch(`${urlOf(core)}/readyz`)
    expect(ready.status).toBe(503)
    const body = (await ready.json()) as {
      ready: boolean
      spores: { name: string; state: string; reason: string }[]
    }
    expect(body.ready).toBe(false)
    expect(body.spores.map((spore) => [spore.name, spore.state])).toEqual([['broken', 'dormant']])
    expect(body.spores[0]!.reason).toContain('the moon is unreachable')
  })
})

describe('/metrics', () => {
  it('is absent without a token in mycelo.yaml', async () => {
    core = await boot('')
    expect((await fetch(`${urlOf(core)}/metrics`)).status).toBe(404)
  })

  it('asks for the bearer token, and answers Prometheus text fed by the message path', async () => {
    core = await boot('  metricsToken: s3cret-metrics\n', { broken: BROKEN })
    const url = urlOf(core)
    expect((await fetch(`${url}/metrics`)).status).toBe(401)
    const wrong = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
    await say(core, '/ping')
    await say(core, 'just talking')
    const answer = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer s3cret-metrics' } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toStartWith('text/plain; version=0.0.4')
    const text = await answer.text()
    expect(text).toContain('# TYPE mycelo_messages_total counter')
    expect(text).toContain('mycelo_messages_total{outcome="admitted"} 2')
    expect(text).toContain('mycelo_messages_total{outcome="not_admitted"} 0')
    expect(text).toContain('# TYPE mycelo_dispatch_seconds histogram')
    expect(text).toContain('mycelo_dispatch_seconds_bucket{le="+Inf"} 2')
    expect(text).toContain('mycelo_dispatch_seconds_count 2')
    expect(text).toContain('mycelo_spores{state="live"} 2')
    expect(text).toContain('mycelo_spores{state="dormant"} 1')
    expect(text).toContain('mycelo_installs 0')
  })
})
