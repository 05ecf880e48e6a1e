// What Telegram sends a bot, heard the way the core needs it: private chats and groups, forum
// topics, commands addressed with @, edits heard once, photos fetched, and restarts that neither
// replay nor lose updates.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { memoryStorage } from '@mycelo/septum/conformance'
import { startFakeTelegram } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

let rig: Rig
beforeAll(async () => {
  rig = await connectedRig()
})
afterAll(() => rig.stop())

const heard = (messageId: number, text?: string) =>
  rig.emitted.waitFor((m) => m.messageId === String(messageId) && (text === undefined || m.text === text))

describe('hearing Telegram', () => {
  it('hears a private message with its sender, and no group', async () => {
    const { world } = rig.fake
    const sent = rig.fake.say({ from: world.alice, text: '/help' })
    const message = await heard(sent.message_id)
    expect(message).toMatchObject({
      channel: 'telegram',
      conversationId: String(world.alice.chat.id),
      text: '/help',
      sender: { channel: 'telegram', externalId: String(world.alice.user.id), displayName: 'Alice Martin' },
      attachments: [],
    })
    expect(message.group).toBeUndefined()
  })

  it('hears a group message with its group, and strips the bot’s own @name from a command', async () => {
    const { world } = rig.fake
    const sent = rig.fake.say({ from: world.bob, text: '/help@Mycelo_Test_Bot movies', inGroup: true })
    const message = await heard(sent.message_id)
    expect(message.text).toBe('/help movies')
    expect(message.group).toEqual({ id: String(world.group.id), name: 'Family' })
    expect(message.conversationId).toBe(String(world.group.id))
  })

  it('leaves a command addressed to another bot, and a bot’s own messages, unheard', async () => {
    const { world } = rig.fake
    rig.fake.say({ from: world.bob, text: '/help@other_bot', inGroup: true })
    rig.fake.say({
      from: { ...world.carol, user: { ...world.carol.user, is_bot: true } },
      text: '/help',
      inGroup: true,
    })
    const marker = rig.fake.say({ from: world.bob, text: 'marker', inGroup: true })
    await heard(marker.message_id)
    const texts = rig.emitted.entries.map((m) => m.text)
    expect(texts).not.toContain('/help@other_bot')
    expect(rig.emitted.entries.filter((m) => m.sender.externalId === String(world.carol.user.id))).toEqual([])
  })

  it('makes a forum topic its own conversation, <chat>/<topic>', async () => {
    const { world } = rig.fake
    const sent = rig.fake.say({ from: world.alice, text: 'in the topic', topic: 42 })
    const message = await heard(sent.message_id)
    expect(message.conversationId).toBe(`${world.group.id}/42`)
    expect(message.group?.id).toBe(String(world.group.id))
  })

  it('hears an edit that changes the text once, and not an edit that keeps it', async () => {
    const { world } = rig.fake
    const original = rig.fake.say({ from: world.alice, text: '/hlep' })
    await heard(original.message_id, '/hlep')
    const edited = rig.fake.edit(original, '/help')
    await heard(original.message_id, '/help')
    rig.fake.edit(edited, '/help')
    // The same update delivered twice is heard once too.
    const again = rig.fake.world.update({ edited_message: { ...edited, text: '/help again' } })
    rig.fake.api.push(again)
    rig.fake.api.push(again)
    await heard(original.message_id, '/help again')
    const marker = rig.fake.say({ from: world.alice, text: 'marker' })
    await heard(marker.message_id)
    const versions = rig.emitted.entries
      .filter((m) => m.messageId === String(original.message_id))
      .map((m) => m.text)
    expect(versions).toEqual(['/hlep', '/help', '/help again'])
  })

  it('hands on a photo’s bytes with its caption as the text, never a URL holding the token', async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])
    const sent = rig.fake.sendPhoto(rig.fake.world.bob, bytes, '/look')
    const message = await heard(sent.message_id)
    expect(message.text).toBe('/look')
    expect(message.attachments).toHaveLength(1)
    const [photo] = message.attachments
    expect(photo?.contentType).toBe('image/jpeg')
    expect([...(photo?.data ?? [])]).toEqual([...bytes])
    expect(photo?.url).toBeUndefined()
    expect(JSON.stringify(message.attachments)).not.toContain(rig.fake.token)
  })

  it('hands on a document’s bytes with its file name and type', async () => {
    const { world } = rig.fake
    const bytes = new TextEncoder().encode('%PDF-1.7 ticket')
    const stored = world.storeFile(bytes, 'pdf')
    const sent = rig.fake.say({
      from: world.alice,
      extra: { document: { ...stored, file_name: 'ticket.pdf', mime_type: 'application/pdf' } },
    })
    const message = await heard(sent.message_id)
    expect(message.attachments).toHaveLength(1)
    expect(message.attachments[0]).toMatchObject({
      name: 'ticket.pdf',
      contentType: 'application/pdf',
      size: bytes.byteLength,
    })
    expect(new TextDecoder().decode(message.attachments[0]?.data)).toBe('%PDF-1.7 ticket')
  })

  it('passes a file over maxFileMegabytes on without its bytes, saying why in the log', async () => {
    await rig.stop()
    const big = await connectedRig({ settings: { maxFileMegabytes: 1 } })
    try {
      const bytes = new Uint8Array(1024 * 1024 + 1)
      const sent = big.fake.sendPhoto(big.fake.world.bob, bytes)
      const message = await big.emitted.waitFor((m) => m.messageId === String(sent.message_id))
      expect(message.attachments[0]?.data).toBeUndefined()
      expect(message.attachments[0]?.size).toBe(bytes.byteLength)
      await big.logs.waitFor((line) => line.message.includes('larger than maxFileMegabytes'))
    } finally {
      await big.stop()
      rig = await connectedRig()
    }
  })
})

describe('restarts', () => {
  it('resumes from the kept offset: nothing heard before is heard again, nothing sent meanwhile is lost', async () => {
    const fake = startFakeTelegram()
    const storage = memoryStorage()
    try {
      const first = await connectedRig({ fake, storage })
      const before = fake.say({ from: fake.world.alice, text: 'before' })
      await first.emitted.waitFor((m) => m.messageId === String(before.message_id))
      await first.stop()
      const during = fake.say({ from: fake.world.alice, text: 'while stopped' })
      const second = await connectedRig({ fake, storage })
      try {
        await second.emitted.waitFor((m) => m.messageId === String(during.message_id))
        const after = fake.say({ from: fake.world.alice, text: 'after' })
        await second.emitted.waitFor((m) => m.messageId === String(after.message_id))
        expect(second.emitted.entries.map((m) => m.text)).toEqual(['while stopped', 'after'])
      } finally {
        await second.stop()
      }
    } finally {
      await fake.stop()
    }
  })
})
