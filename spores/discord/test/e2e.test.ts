// The discord spore inside the real core: the real discord.js client against the fake Discord, the
// real help spore answering through the mycelium, replies arriving at the fake's REST endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { GatewayOpcodes } from 'discord.js'
import { type CoreWith, startCoreWith } from '../../../core/test/support/boot-core.ts'
import { LONG_DONE, LONG_REPLY_SPORE, LONG_TEXT } from '../../../core/test/support/long-reply.ts'
import { type FakeDiscord, type Person, type RecordedRequest, startFakeDiscord } from './fake/index.ts'

const SPORES = join(import.meta.dir, '..', '..')
const HELP_LINE = '/help [command] — List the commands you can run here, or explain one of them'

let fake: FakeDiscord
let core: CoreWith

beforeAll(async () => {
  fake = startFakeDiscord({ heartbeatInterval: 500 })
  core = await startCoreWith({
    sporeFolders: [join(SPORES, 'discord'), join(SPORES, 'help')],
    spores: { long: LONG_REPLY_SPORE },
    settings: { discord: { token: fake.token, apiBaseUrl: fake.restApi } },
    // Bob is a newcomer (the default role: help only); Alice may also ask for the long answer.
    roles: { reader: ['help.*', 'long.*'] },
    grants: [{ channel: 'discord', externalId: fake.world.alice.user.id, roles: ['reader'] }],
  })
})

afterAll(async () => {
  await core?.stop()
  await fake?.stop()
})

const isMessagePost = (channelId: string) => (request: RecordedRequest) =>
  request.method === 'POST' && request.path === `/channels/${channelId}/messages`

const contentOf = (request: RecordedRequest) => (request.body as { content?: string }).content ?? ''

/** Injects a user's message and waits for the bot's message whose content satisfies `last`. */
async function exchange(options: {
  channelId: string
  author: Person
  content: string
  last: (content: string) => boolean
}): Promise<string[]> {
  const mark = fake.rest.requests.entries.length
  fake.say({ channelId: options.channelId, author: options.author, content: options.content })
  const fresh = (request: RecordedRequest) =>
    fake.rest.requests.entries.indexOf(request) >= mark && isMessagePost(options.channelId)(request)
  await fake.rest.requests.waitFor((request) => fresh(request) && options.last(contentOf(request)), 10_000)
  return fake.rest.requests.entries.filter(fresh).map(contentOf)
}

describe('the discord spore in the real core', () => {
  it('germinates and connects', () => {
    const lines = core.running.report()
    expect(lines.find((line) => line.name === 'discord')?.state).toBe('live')
    expect(lines.find((line) => line.name === 'help')?.state).toBe('live')
  })

  it('answers /help in a server channel with the commands a newcomer may run', async () => {
    const replies = await exchange({
      channelId: fake.world.textChannelId,
      author: fake.world.bob,
      content: '/help',
      last: (content) => content.includes('/help'),
    })
    expect(replies).toHaveLength(1)
    expect(replies[0]).toContain('The command you can run here:')
    expect(replies[0]).toContain(HELP_LINE)
    // The newcomer holds no right to the long answer, so it is not listed to him.
    expect(replies[0]).not.toContain('/long')
  })

  it('answers /help in a direct message, listing what that reader may run', async () => {
    const replies = await exchange({
      channelId: fake.world.dmChannelId(fake.world.alice.user.id),
      author: fake.world.alice,
      content: '/help',
      last: (content) => content.includes('/help'),
    })
    expect(replies).toHaveLength(1)
    expect(replies[0]).toContain('The 2 commands you can run here:')
    expect(replies[0]).toContain(HELP_LINE)
    expect(replies[0]).toContain('/long — Answer with a very long text')
  })

  it('delivers a reply longer than 2,000 characters in pieces, in order, before the next reply', async () => {
    const replies = await exchange({
      channelId: fake.world.threadId,
      author: fake.world.alice,
      content: '/long',
      last: (content) => content === LONG_DONE,
    })
    expect(LONG_TEXT.length).toBeGreaterThan(4_500)
    const pieces = replies.slice(0, -1)
    expect(replies.at(-1)).toBe(LONG_DONE)
    expect(pieces.length).toBeGreaterThanOrEqual(3)
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(2_000)
    // Cut at line breaks, so the pieces rejoined by them are the whole text, line by line in order.
    expect(pieces.join('\n')).toBe(LONG_TEXT)
    for (const piece of pieces) expect(piece.startsWith('line ')).toBe(true)
  })

  it('resumes a dropped gateway and still answers the next message', async () => {
    fake.gateway.drop(4000)
    await core.waitForLog('discord gateway dropped; reconnecting')
    const resume = await fake.gateway.received.waitFor((frame) => frame.op === GatewayOpcodes.Resume, 10_000)
    expect(resume.path).toBe('/resume')
    expect(resume.d).toMatchObject({ token: fake.token, session_id: expect.any(String) })
    await core.waitForLog('discord gateway resumed')
    const replies = await exchange({
      channelId: fake.world.textChannelId,
      author: fake.world.bob,
      content: '/help',
      last: (content) => content.includes('/help'),
    })
    expect(replies).toHaveLength(1)
    expect(replies[0]).toContain(HELP_LINE)
    // A resume, not a new session: the client identified once, at start-up.
    const identifies = fake.gateway.received.entries.filter((frame) => frame.op === GatewayOpcodes.Identify)
    expect(identifies).toHaveLength(1)
  })
})
