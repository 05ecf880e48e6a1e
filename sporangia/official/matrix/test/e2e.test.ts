// The matrix spore inside the real core: matrix-js-sdk against the fake homeserver, the real help
// spore answering through the mycelium, replies arriving as events the homeserver received.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type CoreWith, startCoreWith } from '../../../../core/test/support/boot-core.ts'
import { HELP, HELP_LINE, until } from '../../kit/in-core.ts'
import { type FakeMatrix, type Person, startFakeMatrix } from './fake/index.ts'

const MATRIX = join(import.meta.dir, '..')

let fake: FakeMatrix
let core: CoreWith

beforeAll(async () => {
  fake = startFakeMatrix()
  core = await startCoreWith({
    sporeFolders: [MATRIX, HELP],
    settings: {
      matrix: {
        homeserverUrl: fake.homeserverUrl,
        accessToken: fake.token,
        acceptInvites: 'listed',
        inviters: [fake.world.alice.userId],
      },
    },
    roles: { reader: ['help.*'] },
    grants: [{ channel: 'matrix', externalId: fake.world.alice.userId, roles: ['reader'] }],
  })
  // The first sync ever is history, never answered: the test speaks once it is done.
  await core.waitForLog('matrix: syncing')
})

afterAll(async () => {
  await core?.stop()
  await fake?.stop()
})

/** Someone writes in a room; answers the bot's events there until one's body satisfies `last`. */
async function exchange(roomId: string, from: Person, body: string, last: (text: string) => boolean) {
  const mark = fake.server.sent.entries.length
  const asked = fake.say(roomId, from, body)
  const fresh = () => fake.server.sent.entries.slice(mark).filter((sent) => sent.roomId === roomId)
  await fake.server.sent.waitFor(
    (sent) => fresh().includes(sent) && last(String(sent.event.content.body)),
    15_000,
  )
  return { asked, answers: fresh().map((sent) => sent.event.content) }
}

/** The bot's answers to /help (its list of commands) since `mark`, in the direct chat. */
const helpsSince = (mark: number) =>
  fake.server.sent.entries
    .slice(mark)
    .filter(
      (sent) =>
        sent.roomId === fake.world.directRoom &&
        String(sent.event.content.body).includes('you can run here:'),
    )

describe('the matrix spore in the real core', () => {
  it('germinates and connects', () => {
    expect(core.running.report().find((line) => line.name === 'matrix')?.state).toBe('live')
  })

  it('answers /help in a direct chat', async () => {
    const { answers } = await exchange(fake.world.directRoom, fake.world.alice, '/help', (text) =>
      text.includes('/help'),
    )
    expect(answers).toHaveLength(1)
    expect(String(answers[0]?.body)).toContain(HELP_LINE)
    expect(answers[0]?.['m.relates_to']).toBeUndefined()
  })

  it('answers /help in a group room, quoting the message it answers', async () => {
    const { asked, answers } = await exchange(fake.world.groupRoom, fake.world.bob, '/help', (text) =>
      text.includes('/help'),
    )
    expect(answers).toHaveLength(1)
    expect(answers[0]?.['m.relates_to']).toEqual({ 'm.in_reply_to': { event_id: asked.event_id } })
  })

  it('answers an edited command once, and not again for an edit that keeps its text', async () => {
    const room = fake.world.directRoom
    const typo = fake.say(room, fake.world.alice, '/hlep')
    const mark = fake.server.sent.entries.length
    const edit = () =>
      fake.say(room, fake.world.alice, '* /help', {
        'm.new_content': { msgtype: 'm.text', body: '/help' },
        'm.relates_to': { rel_type: 'm.replace', event_id: typo.event_id },
      })
    edit()
    await until(() => helpsSince(mark).length >= 1)
    edit()
    // A later command's answer comes after whatever the second edit would have brought.
    await exchange(room, fake.world.alice, '/help help', (text) => text.includes('/help [command]'))
    expect(helpsSince(mark)).toHaveLength(1)
  })

  it('joins a room a listed user invites it to, and answers there', async () => {
    fake.invite('!movies:fake.local', fake.world.alice, { name: 'Movies' })
    const deadline = Date.now() + 10_000
    while (fake.world.membership('!movies:fake.local', '@bot:fake.local') !== 'join') {
      if (Date.now() > deadline) throw new Error('the bot never joined')
      await Bun.sleep(20)
    }
    const { answers } = await exchange('!movies:fake.local', fake.world.alice, '/help', (text) =>
      text.includes('/help'),
    )
    expect(answers).toHaveLength(1)
  })

  it('holds replies the homeserver rate-limits (M_LIMIT_EXCEEDED), then posts them in the order they were made', async () => {
    const room = fake.world.directRoom
    const mark = fake.server.calls.entries.length
    fake.server.inject('/send/', 429, {
      errcode: 'M_LIMIT_EXCEEDED',
      error: 'Too Many Requests',
      retry_after_ms: 500,
    })
    fake.say(room, fake.world.alice, '/help')
    fake.say(room, fake.world.alice, '/help help')
    const sends = () =>
      fake.server.calls.entries
        .slice(mark)
        .filter(
          (call) => call.method === 'PUT' && call.path.includes(`/rooms/${encodeURIComponent(room)}/send/`),
        )
    await until(() => sends().filter((call) => call.status === 200).length >= 2)
    expect(sends()[0]?.status).toBe(429)
    const delivered = sends()
      .filter((call) => call.status === 200)
      .map((call) => String((call.body as { body?: string }).body))
    expect(delivered).toHaveLength(2)
    // The list first (one command here), then the explanation of /help.
    expect(delivered[0]).toContain('you can run here:')
    expect(delivered[1]).not.toContain('you can run here:')
    expect(delivered[1]).toContain('/help [command]')
  })
})
