import { describe, expect, it } from 'bun:test'
import { GatewayCloseCodes, GatewayIntentBits, GatewayOpcodes } from 'discord.js'
import { DiscordConnectError } from '../src/connect-refusal.ts'
import { DiscordHypha } from '../src/hypha.ts'
import { startFakeDiscord } from './fake/index.ts'
import { Recorder } from './fake/recorder.ts'
import { connectedRig, hyphaContext, type LogLine } from './harness.ts'

/** Connects a fresh hypha to a fake and answers what connect() rejected with. */
async function refusal(options: {
  fake?: Parameters<typeof startFakeDiscord>[0]
  token?: string
  closeIdentifyWith?: number
  gatewayUrl?: string
}): Promise<{ error: DiscordConnectError; logs: readonly LogLine[] }> {
  const fake = startFakeDiscord(options.fake)
  fake.gateway.closeNextIdentifyWith = options.closeIdentifyWith
  fake.rest.gatewayUrl = options.gatewayUrl
  const logs = new Recorder<LogLine>()
  const context = hyphaContext(
    { token: options.token ?? fake.token, apiBaseUrl: fake.restApi },
    { emitted: new Recorder(), logs },
  )
  try {
    const outcome = await new DiscordHypha().connect(context).then(
      () => undefined,
      (error: unknown) => error,
    )
    if (!(outcome instanceof DiscordConnectError))
      throw new Error(`expected a DiscordConnectError, got ${outcome}`)
    return { error: outcome, logs: logs.entries }
  } finally {
    await fake.stop()
  }
}

describe('connect() refusals', () => {
  it('names the Message Content intent and the portal switch when Discord closes with 4014', async () => {
    const { error, logs } = await refusal({ fake: { portalIntents: { messageContent: false } } })
    expect(error.message).toContain(
      'a privileged intent the bot needs is not enabled: Message Content Intent.',
    )
    expect(error.message).toContain('Bot → Privileged Gateway Intents, switch on Message Content Intent')
    expect(error.message).not.toContain('Server Members')
    expect(error.ref).toEqual({
      domain: 'discord',
      key: 'connect.intents_disallowed',
      params: { intents: 'Message Content Intent' },
    })
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'warn', meta: expect.objectContaining({ code: 4014 }) }),
    )
  })

  it('asks the gateway for Message Content but not Server Members, so a portal without it still connects', async () => {
    const rig = await connectedRig({ fake: { portalIntents: { guildMembers: false } } })
    try {
      const identify = rig.fake.gateway.received.entries.find((frame) => frame.op === GatewayOpcodes.Identify)
      const intents = (identify?.d as { intents?: number } | undefined)?.intents ?? 0
      expect(intents & GatewayIntentBits.MessageContent).toBe(GatewayIntentBits.MessageContent)
      expect(intents & GatewayIntentBits.GuildMembers).toBe(0)
      expect((await rig.hypha.health()).state).toBe('healthy')
    } finally {
      await rig.stop()
    }
  })

  it('names the token and Reset Token when the REST API answers 401', async () => {
    const { error } = await refusal({ token: 'not-the-token' })
    expect(error.refusal).toBe('token_rejected')
    expect(error.message).toContain('Discord rejected the bot token')
    expect(error.message).toContain('Bot → Reset Token')
  })

  it('names the token when the gateway closes with 4004', async () => {
    const { error } = await refusal({ closeIdentifyWith: GatewayCloseCodes.AuthenticationFailed })
    expect(error.refusal).toBe('token_rejected')
    expect(error.message).toContain('Discord rejected the bot token')
  })

  it('fails, naming the gateway, when it closes before READY with a code discord.js would retry for ever', async () => {
    const { error } = await refusal({ closeIdentifyWith: GatewayCloseCodes.UnknownError })
    expect(error.refusal).toBe('gateway_closed')
    expect(error.message).toMatch(
      /^The Discord gateway \(ws:\/\/127\.0\.0\.1:\d+\/gateway\) closed the connection before/,
    )
  })

  it('fails, naming the gateway, when nothing answers at the URL /gateway/bot gave', async () => {
    const { error } = await refusal({ gatewayUrl: 'ws://127.0.0.1:9' })
    expect(error.refusal).toBe('gateway_unreachable')
    expect(error.message).toContain('The Discord gateway (ws://127.0.0.1:9) could not be reached.')
  })

  it('says what happened for any other fatal close', async () => {
    const { error } = await refusal({ closeIdentifyWith: GatewayCloseCodes.InvalidShard })
    expect(error.refusal).toBe('failed')
    expect(error.message).toBe('Could not connect to Discord: Invalid shard (gateway close code 4010)')
  })
})
