// What the operator can act on, as the hypha reports it: an unavailable Discord retried in the
// background, a rate limit that never clears, a channel the bot may not post in, and the member
// list without the Server Members intent. Each reaches health() and the log in words that say what to do.
import { afterEach, describe, expect, it } from 'bun:test'
import { DiscordHypha } from '../src/hypha.ts'
import { startFakeDiscord } from './fake/index.ts'
import { Recorder } from './fake/recorder.ts'
import { connectedRig, hyphaContext, type LogLine, type Rig } from './harness.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function rig(options: Parameters<typeof connectedRig>[0] = {}): Promise<Rig> {
  const made = await connectedRig(options)
  cleanups.push(() => made.stop())
  return made
}

async function eventually(probe: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await Bun.sleep(10)
  }
}

describe('a Discord that answers 5xx at start-up', () => {
  it('connects anyway, shows unreachable in health with the reason, and retries until it is back', async () => {
    const fake = startFakeDiscord({ heartbeatInterval: 500 })
    const hypha = new DiscordHypha({ retry: { initialMs: 50, maxMs: 200 } })
    cleanups.push(async () => {
      await hypha.stop()
      await fake.stop()
    })
    fake.rest.failRoute('GET', '/gateway/bot', 503)
    const logs = new Recorder<LogLine>()
    await hypha.connect(
      hyphaContext({ token: fake.token, apiBaseUrl: fake.restApi }, { emitted: new Recorder(), logs }),
    )
    await hypha.listen()
    const health = await hypha.health()
    expect(health.state).toBe('unreachable')
    expect(health.detail).toContain('Discord could not be reached (HTTP 503 from')
    expect(health.detail).toContain('The discord spore keeps trying again by itself')
    await expect(hypha.send(fake.world.textChannelId, { text: 'too soon' })).rejects.toThrow(
      'discord: send() while not connected: Discord could not be reached',
    )
    expect(logs.entries.map((line) => line.message)).toContain(
      'discord: Discord is unavailable; trying again',
    )
    fake.rest.restoreRoute('GET', '/gateway/bot')
    await eventually(async () => (await hypha.health()).state === 'healthy', 'the retry to connect')
    await logs.waitFor((line) => line.message === 'discord: connected after Discord was unavailable')
    await hypha.send(fake.world.textChannelId, { text: 'now' })
  })
})

describe('a Discord API that cannot be reached at start-up', () => {
  it('connects anyway and shows unreachable in health, with the network error', async () => {
    const hypha = new DiscordHypha({ retry: { initialMs: 60_000, maxMs: 60_000 } })
    cleanups.push(() => hypha.stop())
    const context = hyphaContext(
      { token: 'fake-bot-token', apiBaseUrl: 'http://127.0.0.1:9/api' },
      { emitted: new Recorder(), logs: new Recorder() },
    )
    await hypha.connect(context)
    const health = await hypha.health()
    expect(health.state).toBe('unreachable')
    expect(health.detail).toMatch(
      /^Discord could not be reached \(.*ECONNREFUSED.*\)\. The discord spore keeps trying/,
    )
    expect(health.detail).toMatch(/Next try in \d+ s \(attempt 2\)\.$/)
  })
})

describe('a rate limit that never clears', () => {
  it('holds each send, shows the count in health, refuses past the bound at once, and gives back what waits on stop', async () => {
    const { fake, hypha } = await rig()
    const channel = fake.world.textChannelId
    fake.rest.rateLimitNext(Number.POSITIVE_INFINITY, { retryAfter: 60 })
    const held = Array.from({ length: 1_000 }, (_, index) =>
      hypha.send(channel, { text: `held ${index}` }).catch((error: unknown) => error),
    )
    await expect(hypha.send(channel, { text: 'one too many' })).rejects.toThrow(
      "discord: not sent: 1000 messages already wait for Discord's rate limit to pass",
    )
    await eventually(async () => (await hypha.health()).state === 'degraded', 'the hold to show')
    const health = await hypha.health()
    expect(health.detail).toContain('Discord rate-limited the bot: 1000 message(s) wait to be sent in order')
    await hypha.stop()
    // Not sent, and said so as a failure worth trying again: the core keeps them for the next start.
    const failures = await Promise.all(held)
    expect(failures.every((error) => (error as { temporary?: boolean }).temporary === true)).toBe(true)
  })
})

describe('a channel the bot may not post in (403, code 50013)', () => {
  it('rejects naming the channel and what to grant, logs it, and shows it in health until a post works', async () => {
    const { fake, hypha, logs } = await rig()
    const channel = fake.world.textChannelId
    fake.rest.refuseSendIn(channel)
    await expect(hypha.send(channel, { text: 'hello?' })).rejects.toThrow(
      `Discord refused to let the bot post in #general (${channel}) (missing permission, code 50013).`,
    )
    expect(logs.entries.filter((line) => line.level === 'error').map((line) => line.meta?.channel)).toEqual([
      channel,
    ])
    const health = await hypha.health()
    expect(health.state).toBe('degraded')
    expect(health.detail).toContain('give the bot’s role View Channel, Send Messages')
    fake.rest.refuseSendIn(channel, false)
    await hypha.send(channel, { text: 'hello!' })
    expect((await hypha.health()).state).toBe('healthy')
  })
})

describe('the member list without the Server Members intent', () => {
  it('rejects naming the portal switch, and health shows it, while the channel keeps working', async () => {
    const { fake, hypha } = await rig({ fake: { portalIntents: { guildMembers: false } } })
    await expect(hypha.listGroupMembers(fake.world.guildId)).rejects.toThrow(
      `Discord refused the member list of server ${fake.world.guildId}: the Server Members Intent is off.`,
    )
    const health = await hypha.health()
    expect(health.state).toBe('degraded')
    expect(health.detail).toContain('switch on Server Members Intent')
    await hypha.send(fake.world.textChannelId, { text: 'still here' })
  })
})
