// The fake Discord sends exactly the payloads fake/payloads.ts types against discord-api-types:
// what arrives on the socket or over HTTP is compared with those typed values, so a payload that
// drifts fails here at run time as well as in `bun run typecheck`.
import { describe, expect, it } from 'bun:test'
import { type APIApplication, GatewayDispatchEvents, GatewayIntentBits, GatewayOpcodes } from 'discord.js'
import { startFakeDiscord } from './fake/index.ts'
import {
  currentApplication,
  dispatchFrame,
  errorBody,
  gatewayBot,
  heartbeatAck,
  hello,
  invalidSession,
  rateLimitBody,
} from './fake/payloads.ts'
import { rawGateway } from './fake/raw-gateway.ts'

/** The keys a type requires (not optional). */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]

/** Every key APIApplication requires; the check below fails typecheck if the API adds or drops one. */
const APPLICATION_REQUIRED = [
  'id',
  'name',
  'icon',
  'description',
  'bot_public',
  'bot_require_code_grant',
  'summary',
  'verify_key',
  'team',
  'flags',
  'flags_new',
] as const satisfies readonly RequiredKeys<APIApplication>[]
const everyRequiredKeyListed: Exclude<
  RequiredKeys<APIApplication>,
  (typeof APPLICATION_REQUIRED)[number]
> extends never
  ? true
  : false = true

/** A value as it is once it went over the wire as JSON: undefined members left out. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

describe('the fake Discord sends the payloads discord-api-types describes', () => {
  it('HELLO, the heartbeat ACK (no d), INVALID_SESSION, READY and RESUMED (no d) on the gateway', async () => {
    const fake = startFakeDiscord({ heartbeatInterval: 300 })
    try {
      const first = await rawGateway(`${fake.gateway.url}?v=10&encoding=json`)
      expect<unknown>(await first.next(GatewayOpcodes.Hello)).toEqual(wire(hello(300)))
      first.socket.send(JSON.stringify({ op: GatewayOpcodes.Heartbeat, d: null }))
      const ack = await first.next(GatewayOpcodes.HeartbeatAck)
      expect<unknown>(ack).toEqual(wire(heartbeatAck()))
      expect(Object.keys(ack).sort()).toEqual(['op', 's', 't'])
      const intents = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages
      first.socket.send(JSON.stringify({ op: GatewayOpcodes.Identify, d: { token: fake.token, intents } }))
      const ready = await first.next(GatewayOpcodes.Dispatch)
      expect(ready).toMatchObject({ op: 0, t: GatewayDispatchEvents.Ready, s: 1 })
      const session = (ready.d as { session_id: string }).session_id
      expect((ready.d as { application: unknown }).application).toEqual({
        id: fake.world.applicationId,
        flags: fake.world.applicationFlags,
        flags_new: String(fake.world.applicationFlags),
      })
      await first.next(GatewayOpcodes.Dispatch)
      first.socket.close(4000)
      await first.closed

      const again = await rawGateway(`${fake.gateway.resumeUrl}?v=10&encoding=json`)
      await again.next(GatewayOpcodes.Hello)
      again.socket.send(
        JSON.stringify({ op: GatewayOpcodes.Resume, d: { token: fake.token, session_id: session, seq: 2 } }),
      )
      const resumed = await again.next(GatewayOpcodes.Dispatch)
      expect<unknown>(resumed).toEqual(wire(dispatchFrame(GatewayDispatchEvents.Resumed, undefined, 3)))
      expect(Object.keys(resumed).sort()).toEqual(['op', 's', 't'])
      again.socket.send(
        JSON.stringify({ op: GatewayOpcodes.Resume, d: { token: fake.token, session_id: 'gone', seq: 1 } }),
      )
      expect<unknown>(await again.next(GatewayOpcodes.InvalidSession)).toEqual(wire(invalidSession(false)))
      again.socket.close()
    } finally {
      await fake.stop()
    }
  })

  it('/applications/@me with every field the API requires, /gateway/bot, and the error and rate-limit bodies', async () => {
    expect(everyRequiredKeyListed).toBe(true)
    const fake = startFakeDiscord()
    const get = async (path: string, token = fake.token) => {
      const response = await fetch(`${fake.restApi}/v10${path}`, {
        headers: { authorization: `Bot ${token}` },
      })
      return { status: response.status, body: (await response.json()) as unknown }
    }
    try {
      const application = await get('/applications/@me')
      const { world } = fake
      const expected = currentApplication({
        id: world.applicationId,
        bot: world.bot,
        flags: world.applicationFlags,
      })
      expect(application).toEqual({ status: 200, body: wire(expected) })
      for (const key of APPLICATION_REQUIRED) expect(Object.keys(application.body as object)).toContain(key)
      expect(await get('/gateway/bot')).toEqual({ status: 200, body: wire(gatewayBot(fake.gateway.url)) })
      expect(await get('/users/@me', 'wrong')).toEqual({
        status: 401,
        body: wire(errorBody('401: Unauthorized', 0)),
      })
      expect(await get('/channels/1')).toEqual({
        status: 404,
        body: wire(errorBody('Unknown Channel', 10_003)),
      })
      fake.rest.rateLimitNext(1, { retryAfter: 0.25 })
      const limited = await fetch(`${fake.restApi}/v10/channels/${world.textChannelId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${fake.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'hi' }),
      })
      expect({ status: limited.status, body: await limited.json() }).toEqual({
        status: 429,
        body: wire(rateLimitBody(0.25, false)),
      })
    } finally {
      await fake.stop()
    }
  })
})
