import { describe, expect, it } from 'bun:test'
import { GatewayCloseCodes } from 'discord.js'
import { DiscordConnectError } from '../src/connect-refusal.ts'
import { DiscordHypha } from '../src/hypha.ts'
import { startFakeDiscord } from './fake/index.ts'
import { Recorder } from './fake/recorder.ts'
import { hyphaContext, type LogLine } from './harness.ts'

/** Connects a fresh hypha to a fake and answers what connect() rejected with. */
async function refusal(options: {
  fake?: Parameters<typeof startFakeDiscord>[0]
  token?: string
  closeIdentifyWith?: number
  applicationUnreadable?: boolean
}): Promise<{ error: DiscordConnectError; logs: readonly LogLine[] }> {
  const fake = startFakeDiscord(options.fake)
  fake.gateway.closeNextIdentifyWith = options.closeIdentifyWith
  if (options.applicationUnreadable === true) fake.rest.failRoute('GET', '/applications/@me', 403)
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

  it('names the Server Members intent when that is the one switched off', async () => {
    const { error } = await refusal({ fake: { portalIntents: { guildMembers: false } } })
    expect(error.message).toContain('not enabled: Server Members Intent.')
    expect(error.message).not.toContain('Message Content')
  })

  it('names both when both are off', async () => {
    const { error } = await refusal({
      fake: { portalIntents: { guildMembers: false, messageContent: false } },
    })
    expect(error.message).toContain('not enabled: Message Content Intent and Server Members Intent.')
  })

  it('names both when the application flags cannot be read to tell which', async () => {
    const { error } = await refusal({
      fake: { portalIntents: { messageContent: false } },
      applicationUnreadable: true,
    })
    expect(error.message).toContain('not enabled: Message Content Intent and Server Members Intent.')
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

  it('says what happened for any other fatal close', async () => {
    const { error } = await refusal({ closeIdentifyWith: GatewayCloseCodes.InvalidShard })
    expect(error.refusal).toBe('failed')
    expect(error.message).toBe('Could not connect to Discord: Invalid shard (gateway close code 4010)')
  })
})
