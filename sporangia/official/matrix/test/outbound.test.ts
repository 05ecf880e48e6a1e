// What the bot says, as the homeserver receives it: replies quoting the message answered in a group
// room, threads, reactions, images and files uploaded, M_LIMIT_EXCEEDED waited out in order, a
// retried send deduplicated by its transaction id, and a room that refuses the bot named.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type FakeMatrix, startFakeMatrix } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

let fake: FakeMatrix
let rig: Rig
beforeAll(async () => {
  fake = startFakeMatrix()
  rig = await connectedRig({
    fake,
    answer: (message) =>
      message.text.startsWith('answer me')
        ? rig.hypha.send(message.conversationId, { text: `answer to ${message.text}` })
        : Promise.resolve(),
  })
})
afterAll(async () => {
  await rig.stop()
  await fake.stop()
})

const sentAfter = (mark: number) => fake.server.sent.entries.slice(mark)

describe('saying things on Matrix', () => {
  it('quotes the message it answers in a group room, and not in a direct chat', async () => {
    const { world } = fake
    const mark = fake.server.sent.entries.length
    const inGroup = fake.say(world.groupRoom, world.bob, 'answer me in the group')
    const inDirect = fake.say(world.directRoom, world.alice, 'answer me directly')
    await fake.server.sent.waitForCount((s) => fake.server.sent.entries.indexOf(s) >= mark, 2)
    const [group, direct] = sentAfter(mark)
    expect(group?.event.content).toMatchObject({
      msgtype: 'm.text',
      body: 'answer to answer me in the group',
      'm.relates_to': { 'm.in_reply_to': { event_id: inGroup.event_id } },
    })
    expect(direct?.event.content['m.relates_to']).toBeUndefined()
    expect(inDirect.sender).toBe(world.alice.userId)
  })

  it('answers into a thread with an m.thread relation', async () => {
    const { world } = fake
    const mark = fake.server.sent.entries.length
    await rig.hypha.send(`${world.groupRoom}/$root_event`, { text: 'in the thread' })
    expect(sentAfter(mark)[0]?.event.content['m.relates_to']).toEqual({
      rel_type: 'm.thread',
      event_id: '$root_event',
      is_falling_back: true,
      'm.in_reply_to': { event_id: '$root_event' },
    })
  })

  it('reacts with an m.annotation', async () => {
    const mark = fake.server.sent.entries.length
    await rig.hypha.send(fake.world.directRoom, { reactTo: { messageId: '$liked', emoji: '👍' } })
    expect(sentAfter(mark)[0]?.event).toMatchObject({
      type: 'm.reaction',
      content: { 'm.relates_to': { rel_type: 'm.annotation', event_id: '$liked', key: '👍' } },
    })
  })

  it('uploads an image as m.image and anything else as m.file, after the text', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47])
    const mark = fake.server.sent.entries.length
    await rig.hypha.send(fake.world.directRoom, {
      text: 'your files',
      attachments: [
        { data: png, name: 'poster.png', contentType: 'image/png' },
        { data: new TextEncoder().encode('%PDF'), name: 'ticket.pdf', contentType: 'application/pdf' },
      ],
    })
    const [text, image, file] = sentAfter(mark).map((s) => s.event.content)
    expect(text?.body).toBe('your files')
    expect(image).toMatchObject({
      msgtype: 'm.image',
      body: 'poster.png',
      info: { mimetype: 'image/png', size: 4 },
    })
    expect(file).toMatchObject({ msgtype: 'm.file', body: 'ticket.pdf' })
    const id = String(image?.url).split('/').at(-1) ?? ''
    expect([...(fake.world.media.get(id)?.bytes ?? [])]).toEqual([...png])
  })

  it('waits out M_LIMIT_EXCEEDED for retry_after_ms, then sends in order', async () => {
    const room = fake.world.directRoom
    fake.server.inject('/send/', 429, {
      errcode: 'M_LIMIT_EXCEEDED',
      error: 'Too Many Requests',
      retry_after_ms: 500,
    })
    const mark = fake.server.sent.entries.length
    const first = rig.hypha.send(room, { text: 'first' })
    const second = rig.hypha.send(room, { text: 'second' })
    let health = await rig.hypha.health()
    while (health.state === 'healthy') {
      await Bun.sleep(5)
      health = await rig.hypha.health()
    }
    expect(health.detail).toContain(
      'The homeserver rate-limited the bot: 2 message(s) wait to be sent in order',
    )
    await Promise.all([first, second])
    expect(sentAfter(mark).map((s) => s.event.content.body)).toEqual(['first', 'second'])
    expect((await rig.hypha.health()).state).toBe('healthy')
  })

  it('sends a message the core retries with the same delivery id once', async () => {
    const mark = fake.server.sent.entries.length
    await rig.hypha.send(fake.world.directRoom, { text: 'once' }, { deliveryId: 'd42' })
    await rig.hypha.send(fake.world.directRoom, { text: 'once' }, { deliveryId: 'd42' })
    expect(sentAfter(mark)).toHaveLength(1)
  })

  it('names a room that refuses the bot (M_FORBIDDEN) in the log and in health', async () => {
    const room = '!elsewhere:fake.local'
    fake.world.createRoom(room, { members: [fake.world.carol], bot: false })
    await expect(rig.hypha.send(room, { text: 'hi' })).rejects.toThrow(
      `The homeserver refused to let the bot post in room ${room}: M_FORBIDDEN`,
    )
    const health = await rig.hypha.health()
    expect(health.state).toBe('degraded')
    expect(health.detail).toContain(`room ${room}`)
  })

  it('refuses a conversation id that is not a room', async () => {
    await expect(rig.hypha.send('general', { text: 'x' })).rejects.toThrow('general is not a Matrix room id')
  })
})
