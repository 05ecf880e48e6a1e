// What a homeserver sends a bot, heard the way the core needs it: rooms and direct chats, replies
// without their quoted fallback, threads, edits heard once, files fetched through authenticated
// media, and a restart that resumes from the kept since token without replaying history.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { memoryStorage } from '@mycelo/septum/conformance'
import { startFakeMatrix } from './fake/index.ts'
import { connectedRig, type Rig } from './harness.ts'

let rig: Rig
beforeAll(async () => {
  rig = await connectedRig()
})
afterAll(() => rig.stop())

const heard = (eventId: string, text?: string) =>
  rig.emitted.waitFor((m) => m.messageId === eventId && (text === undefined || m.text === text))

describe('hearing Matrix', () => {
  it('hears a group room message with its room as the group and the sender’s display name', async () => {
    const { world } = rig.fake
    const event = rig.fake.say(world.groupRoom, world.bob, '/help')
    const message = await heard(event.event_id)
    expect(message).toMatchObject({
      channel: 'matrix',
      conversationId: world.groupRoom,
      text: '/help',
      group: { id: world.groupRoom, name: 'Family' },
      sender: { channel: 'matrix', externalId: world.bob.userId, displayName: 'Bob' },
    })
  })

  it('hears a direct chat without a group, and never its own messages', async () => {
    const { world } = rig.fake
    const event = rig.fake.say(world.directRoom, world.alice, 'hello bot')
    const message = await heard(event.event_id)
    expect(message.group).toBeUndefined()
    await rig.hypha.send(world.directRoom, { text: 'hello Alice' })
    const marker = rig.fake.say(world.directRoom, world.alice, 'marker')
    await heard(marker.event_id)
    expect(rig.emitted.entries.map((m) => m.text)).not.toContain('hello Alice')
  })

  it('reads a reply without the quoted fallback, so the command in it parses', async () => {
    const { world } = rig.fake
    const first = rig.fake.say(world.groupRoom, world.bob, 'which film tonight?')
    const reply = rig.fake.say(
      world.groupRoom,
      world.alice,
      '> <@bob:fake.local> which film tonight?\n\n/help movies',
      {
        'm.relates_to': { 'm.in_reply_to': { event_id: first.event_id } },
      },
    )
    expect((await heard(reply.event_id)).text).toBe('/help movies')
  })

  it('makes a thread its own conversation, <room>/<thread root>', async () => {
    const { world } = rig.fake
    const root = rig.fake.say(world.groupRoom, world.alice, 'movie night?')
    const inThread = rig.fake.say(world.groupRoom, world.bob, 'yes', {
      'm.relates_to': {
        rel_type: 'm.thread',
        event_id: root.event_id,
        is_falling_back: true,
        'm.in_reply_to': { event_id: root.event_id },
      },
    })
    expect((await heard(inThread.event_id)).conversationId).toBe(`${world.groupRoom}/${root.event_id}`)
  })

  it('hears an edit that changes the text once, as the original message, and not one that keeps it', async () => {
    const { world } = rig.fake
    const original = rig.fake.say(world.directRoom, world.alice, '/hlep')
    await heard(original.event_id, '/hlep')
    const edit = (body: string) =>
      rig.fake.say(world.directRoom, world.alice, `* ${body}`, {
        'm.new_content': { msgtype: 'm.text', body },
        'm.relates_to': { rel_type: 'm.replace', event_id: original.event_id },
      })
    edit('/help')
    await heard(original.event_id, '/help')
    edit('/help')
    const marker = rig.fake.say(world.directRoom, world.alice, 'marker 2')
    await heard(marker.event_id)
    expect(rig.emitted.entries.filter((m) => m.messageId === original.event_id).map((m) => m.text)).toEqual([
      '/hlep',
      '/help',
    ])
  })

  it('fetches an image’s bytes through authenticated media, with its name and type', async () => {
    const { world } = rig.fake
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2])
    const mxc = rig.fake.upload(bytes, 'image/png')
    const event = rig.fake.say(world.directRoom, world.alice, 'cat.png', {
      msgtype: 'm.image',
      url: mxc,
      info: { mimetype: 'image/png', size: bytes.byteLength },
    })
    const message = await heard(event.event_id)
    expect(message.text).toBe('')
    expect(message.attachments).toHaveLength(1)
    expect(message.attachments[0]).toMatchObject({
      name: 'cat.png',
      contentType: 'image/png',
      size: bytes.byteLength,
    })
    expect([...(message.attachments[0]?.data ?? [])]).toEqual([...bytes])
    const download = rig.fake.server.calls.entries.find((call) => call.path.includes('/media/download/'))
    expect(download?.status).toBe(200)
  })
})

describe('files', () => {
  it('fetches a file’s bytes (m.file) with its name and type', async () => {
    const { world } = rig.fake
    const bytes = new TextEncoder().encode('%PDF-1.7 ticket')
    const event = rig.fake.say(world.directRoom, world.alice, 'ticket.pdf', {
      msgtype: 'm.file',
      url: rig.fake.upload(bytes, 'application/pdf'),
      info: { mimetype: 'application/pdf', size: bytes.byteLength },
    })
    const message = await heard(event.event_id)
    expect(message.attachments[0]).toMatchObject({
      name: 'ticket.pdf',
      contentType: 'application/pdf',
      size: bytes.byteLength,
    })
    expect(new TextDecoder().decode(message.attachments[0]?.data)).toBe('%PDF-1.7 ticket')
  })
})

describe('restarts', () => {
  it('does not answer history on the first sync, and resumes from the kept token after a restart', async () => {
    const fake = startFakeMatrix()
    const storage = memoryStorage()
    try {
      const old = rig.fake.world
      fake.say(fake.world.groupRoom, fake.world.alice, 'from before the bot ever ran')
      const first = await connectedRig({ fake, storage })
      const live = fake.say(fake.world.groupRoom, fake.world.alice, 'live')
      await first.emitted.waitFor((m) => m.messageId === live.event_id)
      await first.stop()
      const during = fake.say(fake.world.groupRoom, fake.world.alice, 'while stopped')
      const second = await connectedRig({ fake, storage })
      try {
        const after = fake.say(fake.world.groupRoom, fake.world.alice, 'after')
        await second.emitted.waitFor((m) => m.messageId === after.event_id)
        expect(first.emitted.entries.map((m) => m.text)).toEqual(['live'])
        expect(second.emitted.entries.map((m) => m.text)).toEqual(['while stopped', 'after'])
        expect(during.sender).toBe(fake.world.alice.userId)
        expect(old).not.toBe(fake.world)
      } finally {
        await second.stop()
      }
    } finally {
      await fake.stop()
    }
  })
})
