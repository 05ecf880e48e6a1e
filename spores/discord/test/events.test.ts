// What real Discord sends that a plain MESSAGE_CREATE does not show: replies (type 19), edits and
// unfurls (MESSAGE_UPDATE), threads announced by THREAD_CREATE, and CDN URLs that expire.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { MessageType } from 'discord.js'
import { connectedRig, type Rig } from './harness.ts'

let rig: Rig
beforeAll(async () => {
  rig = await connectedRig()
})
afterAll(async () => {
  await rig.stop()
})

describe('events real Discord sends', () => {
  it('hears a reply (type 19) with its own text', async () => {
    const { fake } = rig
    const channelId = fake.world.textChannelId
    const first = fake.say({ channelId, author: fake.world.bob, content: 'which film tonight?' })
    const reply = fake.say({ channelId, author: fake.world.alice, content: '/help', replyTo: first })
    expect(reply.type).toBe(MessageType.Reply)
    const heard = await rig.emitted.waitFor((message) => message.messageId === reply.id)
    expect(heard.text).toBe('/help')
    expect(heard.conversationId).toBe(channelId)
  })

  it('hears an edit that changes the text once, and not the unfurl that follows it', async () => {
    const { fake } = rig
    const channelId = fake.world.textChannelId
    const original = fake.say({ channelId, author: fake.world.alice, content: '/hlep' })
    await rig.emitted.waitFor((message) => message.messageId === original.id)
    const edited = fake.edit(original, '/help')
    await rig.emitted.waitFor((message) => message.messageId === original.id && message.text === '/help')
    fake.unfurl(edited)
    // A later message proves the unfurl was processed before it, and heard nothing.
    const marker = fake.say({ channelId, author: fake.world.alice, content: 'marker' })
    await rig.emitted.waitFor((message) => message.messageId === marker.id)
    const versions = rig.emitted.entries
      .filter((message) => message.messageId === original.id)
      .map((m) => m.text)
    expect(versions).toEqual(['/hlep', '/help'])
  })

  it('hears a message in a thread announced by THREAD_CREATE, and answers into that thread', async () => {
    const { fake } = rig
    const threadId = fake.openThread('movie night', fake.world.alice)
    const sent = fake.say({ channelId: threadId, author: fake.world.alice, content: 'in the thread' })
    const heard = await rig.emitted.waitFor((message) => message.messageId === sent.id)
    expect(heard.conversationId).toBe(threadId)
    expect(heard.group).toEqual({ id: fake.world.guildId, name: fake.world.guildName })
    await rig.hypha.send(threadId, { text: 'answered in the thread' })
    const post = await fake.rest.requests.waitFor(
      (request) => request.method === 'POST' && request.path === `/channels/${threadId}/messages`,
    )
    expect(post.status).toBe(200)
  })

  it('hands on signed CDN URLs that the CDN refuses once they expire', async () => {
    const { fake } = rig
    const hosted = fake.rest.host({
      name: 'poster.png',
      bytes: new Uint8Array([1, 2, 3]),
      contentType: 'image/png',
    })
    const sent = fake.say({
      channelId: fake.world.textChannelId,
      author: fake.world.alice,
      content: 'poster',
      attachments: [hosted],
    })
    const heard = await rig.emitted.waitFor((message) => message.messageId === sent.id)
    const url = new URL(heard.attachments[0]?.url ?? '')
    expect([...url.searchParams.keys()]).toEqual(['ex', 'is', 'hm'])
    expect((await fetch(url)).status).toBe(200)
    const validUntil = fake.world.attachmentsValidUntil
    fake.world.attachmentsValidUntil = Date.now()
    try {
      await expect(
        rig.hypha.send(fake.world.textChannelId, { attachments: [{ url: url.href }] }),
      ).rejects.toThrow('discord: attachment 1 could not be downloaded: HTTP 404')
    } finally {
      fake.world.attachmentsValidUntil = validUntil
    }
  })
})
