// What the operator sees through the real core when Discord refuses or is unavailable: the report,
// the log, and /health (the admin spore's, or the same health.read the page uses).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { healthRead } from '../../../core/mycelium/health.ts'
import { type CoreWith, startCoreWith } from '../../../core/test/support/boot-core.ts'
import { type FakeDiscord, type Person, type RecordedRequest, startFakeDiscord } from './fake/index.ts'

const SPORES = join(import.meta.dir, '..', '..')
const HELP_LINE = '/help [command] — List the commands you can run here, or explain one of them'

const posts = (fake: FakeDiscord, channelId: string) =>
  fake.rest.requests.entries.filter(
    (request: RecordedRequest) =>
      request.method === 'POST' && request.path === `/channels/${channelId}/messages`,
  )
const contentOf = (request: RecordedRequest) =>
  (request.body as { content?: string } | undefined)?.content ?? ''

describe('the discord spore in the real core, when Discord answers 5xx at start-up', () => {
  let fake: FakeDiscord
  let core: CoreWith

  beforeAll(async () => {
    fake = startFakeDiscord({ heartbeatInterval: 500 })
    fake.rest.failRoute('GET', '/gateway/bot', 502)
    core = await startCoreWith({
      sporeFolders: [join(SPORES, 'discord'), join(SPORES, 'help')],
      settings: { discord: { token: fake.token, apiBaseUrl: fake.restApi } },
    })
  })

  afterAll(async () => {
    await core?.stop()
    await fake?.stop()
  })

  it('keeps the channel started, shows why in health, the report and the log, and connects once Discord is back', async () => {
    const line = await core.waitForLog('discord: Discord is unavailable; trying again')
    // Started, yet reaching nothing: the report reads it as /health does, never live.
    await core.running.assembly!.runtime.supervisor.poll()
    const reported = core.running.report().find((entry) => entry.name === 'discord')
    expect(reported?.state).toBe('dormant')
    // The channel said at once that it is trying again, and how: the supervisor reads it so.
    expect(reported?.reason).toMatch(
      /^reconnecting \(attempt 1, next in \d+ s\): Discord could not be reached/,
    )
    expect(String(line.reason)).toContain('Discord could not be reached (HTTP 502 from')
    const health = healthRead(core.running.assembly!.runtime)
    const [discord] = (await health.health()).filter((entry) => entry.name === 'discord')
    expect(discord?.state).toBe('unreachable')
    expect(discord?.detail).toContain('The discord spore keeps trying again by itself')

    fake.rest.restoreRoute('GET', '/gateway/bot')
    await core.waitForLog('discord: connected after Discord was unavailable')
    fake.say({ channelId: fake.world.textChannelId, author: fake.world.bob, content: '/help' })
    await fake.rest.requests.waitFor((request) => contentOf(request).includes(HELP_LINE), 10_000)
    const [after] = (await health.health()).filter((entry) => entry.name === 'discord')
    expect(after?.state).toBe('healthy')
    expect(core.running.report().find((entry) => entry.name === 'discord')?.state).toBe('live')
  })
})

describe('the discord spore in the real core, when Discord refuses a send', () => {
  let fake: FakeDiscord
  let core: CoreWith

  beforeAll(async () => {
    fake = startFakeDiscord({ heartbeatInterval: 500 })
    core = await startCoreWith({
      sporeFolders: [join(SPORES, 'discord'), join(SPORES, 'help'), join(SPORES, 'admin')],
      settings: { discord: { token: fake.token, apiBaseUrl: fake.restApi } },
      roles: { operator: ['help.*', 'admin.health'] },
      grants: [{ channel: 'discord', externalId: fake.world.alice.user.id, roles: ['operator'] }],
    })
  })

  afterAll(async () => {
    await core?.stop()
    await fake?.stop()
  })

  /** Alice asks /health in her DM; answers the reply. */
  async function healthAsked(by: Person): Promise<string> {
    const dm = fake.world.dmChannelId(by.user.id)
    const mark = posts(fake, dm).length
    fake.say({ channelId: dm, author: by, content: '/health' })
    await fake.rest.requests.waitFor(() => posts(fake, dm).length > mark, 10_000)
    return contentOf(posts(fake, dm)[mark] as RecordedRequest)
  }

  it('names the channel it may not post in (403 50013) in the log and in /health', async () => {
    const channel = fake.world.textChannelId
    fake.rest.refuseSendIn(channel)
    fake.say({ channelId: channel, author: fake.world.bob, content: '/help' })
    const words = `Discord refused to let the bot post in #general (${channel}) (missing permission, code 50013).`
    await core.waitForLog(
      `${words} To fix it: in that channel’s or server’s settings, give the bot’s role View Channel, ` +
        'Send Messages, Send Messages in Threads, Attach Files and Add Reactions.',
    )
    expect(await healthAsked(fake.world.alice)).toContain(`discord: degraded — gateway ready`)
    expect(await healthAsked(fake.world.alice)).toContain(words)
    fake.rest.refuseSendIn(channel, false)
  })

  it('holds a reply Discord rate-limits, says so in the log, then posts it', async () => {
    const channel = fake.world.textChannelId
    fake.rest.rateLimitNext(1, { retryAfter: 0.2 })
    fake.say({ channelId: channel, author: fake.world.bob, content: '/help' })
    const held = await core.waitForLog(
      'discord: Discord rate-limited the bot; messages wait to be sent in order',
    )
    expect(held.waiting).toBe(1)
    await fake.rest.requests.waitFor(
      (request) =>
        contentOf(request).includes(HELP_LINE) && request.status === 200 && request.path.includes(channel),
      10_000,
    )
  })

  it('answers an edited command once, and not again when its link unfurls', async () => {
    const channel = fake.world.textChannelId
    const original = fake.say({ channelId: channel, author: fake.world.bob, content: 'hepl me' })
    const mark = posts(fake, channel).length
    const edited = fake.edit(original, '/help')
    await fake.rest.requests.waitFor(() => posts(fake, channel).length > mark, 10_000)
    fake.unfurl(edited)
    // A later command's answer proves the unfurl went through the core first, unanswered.
    fake.say({ channelId: channel, author: fake.world.bob, content: '/help help' })
    await fake.rest.requests.waitFor(() => posts(fake, channel).length > mark + 1, 10_000)
    const [answer, next] = posts(fake, channel).slice(mark).map(contentOf)
    expect(answer).toContain('commands you can run here:')
    expect(next).not.toContain('commands you can run here:')
  })
})
