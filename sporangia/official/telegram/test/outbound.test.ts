// What the bot says, as Telegram receives it: long text in pieces, replies quoting the message
// they answer in a group, forum topics, photos and documents, reactions, retry_after honoured in
// order, and a chat that blocked the bot refused once rather than retried.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type FakeTelegram, type RecordedCall, startFakeTelegram } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

let fake: FakeTelegram
let rig: Rig
beforeAll(async () => {
  fake = startFakeTelegram()
  rig = await connectedRig({ fake })
})
afterAll(async () => {
  await rig.stop()
  await fake.stop()
})

const callsAfter = (mark: number, method: string): RecordedCall[] =>
  rig.fake.api.calls.entries.slice(mark).filter((call) => call.method === method)

describe('saying things on Telegram', () => {
  it('sends a text longer than 4,096 characters in pieces, in order', async () => {
    const chat = String(rig.fake.world.alice.chat.id)
    const lines = Array.from({ length: 300 }, (_, index) => `line ${index} ${'x'.repeat(20)}`)
    const mark = rig.fake.api.calls.entries.length
    await rig.hypha.send(chat, { text: lines.join('\n') })
    const texts = callsAfter(mark, 'sendMessage').map((call) => String(call.params.text))
    expect(texts.length).toBeGreaterThanOrEqual(2)
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(4_096)
    expect(texts.join('\n')).toBe(lines.join('\n'))
  })

  it('quotes the message it answers in a group, and not in a private chat', async () => {
    await rig.stop()
    const answering: Rig = await connectedRig({
      fake,
      answer: (message) =>
        answering.hypha.send(message.conversationId, { text: `answer to ${message.text}` }),
    })
    try {
      const { world } = answering.fake
      const mark = answering.fake.api.calls.entries.length
      const inGroup = answering.fake.say({ from: world.bob, text: 'group question', inGroup: true })
      const inPrivate = answering.fake.say({ from: world.bob, text: 'private question' })
      await answering.fake.api.sent.waitForCount(
        (m) => 'text' in m && String(m.text).startsWith('answer to'),
        2,
      )
      const [group, direct] = callsAfter(mark, 'sendMessage')
      expect(group?.params).toMatchObject({
        text: 'answer to group question',
        reply_parameters: { message_id: inGroup.message_id, allow_sending_without_reply: true },
      })
      expect(direct?.params.text).toBe('answer to private question')
      expect(direct?.params.reply_parameters).toBeUndefined()
      expect(inPrivate.chat.type).toBe('private')
    } finally {
      await answering.stop()
      rig = await connectedRig({ fake })
    }
  })

  it('answers into a forum topic with its message_thread_id', async () => {
    const { world } = rig.fake
    const mark = rig.fake.api.calls.entries.length
    await rig.hypha.send(`${world.group.id}/42`, { text: 'in the topic' })
    const [call] = callsAfter(mark, 'sendMessage')
    expect(call?.params).toMatchObject({
      chat_id: world.group.id,
      message_thread_id: 42,
      text: 'in the topic',
    })
  })

  it('uploads a JPEG as a photo and anything else as a document, after the text', async () => {
    const chat = String(rig.fake.world.alice.chat.id)
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 9, 9])
    const pdf = new TextEncoder().encode('%PDF-1.4 fake')
    const mark = rig.fake.api.calls.entries.length
    await rig.hypha.send(chat, {
      text: 'your files',
      attachments: [
        { data: jpeg, name: 'poster.jpg', contentType: 'image/jpeg' },
        { data: pdf, name: 'ticket.pdf', contentType: 'application/pdf' },
      ],
    })
    const order = rig.fake.api.calls.entries.slice(mark).map((call) => call.method)
    expect(order).toEqual(['sendMessage', 'sendPhoto', 'sendDocument'])
    const [photo] = callsAfter(mark, 'sendPhoto')
    const [document] = callsAfter(mark, 'sendDocument')
    expect([...(photo?.files.photo?.bytes ?? [])]).toEqual([...jpeg])
    expect(document?.files.document?.name).toBe('ticket.pdf')
    expect(new TextDecoder().decode(document?.files.document?.bytes)).toBe('%PDF-1.4 fake')
  })

  it('downloads an attachment given by URL before uploading it, and refuses a failed download', async () => {
    const host = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (request) =>
        new URL(request.url).pathname === '/menu.png'
          ? new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
          : new Response('gone', { status: 404 }),
    })
    try {
      const chat = String(rig.fake.world.alice.chat.id)
      const mark = rig.fake.api.calls.entries.length
      await rig.hypha.send(chat, { attachments: [{ url: `http://127.0.0.1:${host.port}/menu.png` }] })
      const [photo] = callsAfter(mark, 'sendPhoto')
      expect(photo?.files.photo?.name).toBe('menu.png')
      await expect(
        rig.hypha.send(chat, { attachments: [{ url: `http://127.0.0.1:${host.port}/gone.png` }] }),
      ).rejects.toThrow('could not be downloaded: HTTP 404')
    } finally {
      await host.stop(true)
    }
  })

  it('reacts with setMessageReaction', async () => {
    const chat = String(rig.fake.world.alice.chat.id)
    const mark = rig.fake.api.calls.entries.length
    await rig.hypha.send(chat, { reactTo: { messageId: '123', emoji: '👍' } })
    const [call] = callsAfter(mark, 'setMessageReaction')
    expect(call?.params).toMatchObject({
      chat_id: Number(chat),
      message_id: 123,
      reaction: [{ type: 'emoji', emoji: '👍' }],
    })
  })

  it('waits out retry_after and then sends what waited, in order, before anything newer', async () => {
    const chat = String(rig.fake.world.bob.chat.id)
    rig.fake.api.inject('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      parameters: { retry_after: 1 },
    })
    const mark = rig.fake.api.sent.entries.length
    const calls = rig.fake.api.calls.entries.length
    // Handed over together: the second waits behind the first, which waits out the limit.
    const first = rig.hypha.send(chat, { text: 'first' })
    const second = rig.hypha.send(chat, { text: 'second' })
    await rig.fake.api.calls.waitFor(
      (call) => rig.fake.api.calls.entries.indexOf(call) >= calls && call.status === 429,
    )
    // The answer is recorded as it leaves the fake; the outbox reads it a moment later.
    let health = await rig.hypha.health()
    while (health.state === 'healthy') {
      await Bun.sleep(5)
      health = await rig.hypha.health()
    }
    expect(health.state).toBe('degraded')
    expect(health.detail).toContain('Telegram rate-limited the bot: 2 message(s) wait to be sent in order')
    await Promise.all([first, second])
    const texts = rig.fake.api.sent.entries.slice(mark).map((m) => ('text' in m ? m.text : undefined))
    expect(texts).toEqual(['first', 'second'])
    expect((await rig.hypha.health()).state).toBe('healthy')
  })

  it('reports a user who blocked the bot once, and sends nothing more there until they write again', async () => {
    const { world } = rig.fake
    const chat = String(world.carol.chat.id)
    world.blocked.add(world.carol.user.id)
    const mark = rig.fake.api.calls.entries.length
    await expect(rig.hypha.send(chat, { text: 'hello' })).rejects.toThrow('bot was blocked by the user')
    await expect(rig.hypha.send(chat, { text: 'hello again' })).rejects.toThrow(
      'Telegram will not deliver to chat',
    )
    await expect(rig.hypha.send(chat, { text: 'and again' })).rejects.toThrow(
      'Telegram will not deliver to chat',
    )
    // One call reached Telegram; the others were refused here.
    expect(callsAfter(mark, 'sendMessage')).toHaveLength(1)
    expect(
      rig.logs.entries.filter((line) => line.level === 'error' && line.message.includes(`chat ${chat}`)),
    ).toHaveLength(1)
    const health = await rig.hypha.health()
    expect(health.state).toBe('degraded')
    expect(health.detail).toContain(
      `Telegram will not deliver to chat ${chat}: 403 Forbidden: bot was blocked by the user`,
    )
    world.blocked.delete(world.carol.user.id)
    const back = rig.fake.say({ from: world.carol, text: 'I unblocked you' })
    await rig.emitted.waitFor((m) => m.messageId === String(back.message_id))
    await rig.hypha.send(chat, { text: 'welcome back' })
    expect(callsAfter(mark, 'sendMessage')).toHaveLength(2)
    expect((await rig.hypha.health()).state).toBe('healthy')
  })

  it('refuses a conversation id that is not a Telegram chat', async () => {
    await expect(rig.hypha.send('general', { text: 'x' })).rejects.toThrow(
      'general is not a Telegram chat id',
    )
  })
})
