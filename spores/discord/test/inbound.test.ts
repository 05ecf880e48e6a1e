import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Message } from 'discord.js'
import { connectedRig, type Rig } from './harness.ts'

describe('inbound messages', () => {
  let rig: Rig

  beforeAll(async () => {
    rig = await connectedRig({ listen: false })
  })

  afterAll(async () => {
    await rig.stop()
  })

  it('emits nothing heard before listen(), then what comes after', async () => {
    const { fake } = rig
    const early = fake.say({
      channelId: fake.world.textChannelId,
      author: fake.world.alice,
      content: 'too early',
    })
    await rig.logs.waitFor(
      (line) => line.message.includes('before listen()') && line.meta?.messageId === early.id,
    )
    await rig.hypha.listen()
    fake.say({ channelId: fake.world.textChannelId, author: fake.world.alice, content: 'on time' })
    await rig.emitted.waitFor((message) => message.text === 'on time')
    expect(rig.emitted.entries.map((message) => message.text)).toEqual(['on time'])
  })

  it('makes a guild message an IncomingMessage with its guild, sender and nickname', async () => {
    const { fake } = rig
    const sent = fake.say({ channelId: fake.world.textChannelId, author: fake.world.alice, content: '/help' })
    const heard = await rig.emitted.waitFor((message) => message.messageId === sent.id)
    expect(heard).toMatchObject({
      channel: 'discord',
      conversationId: fake.world.textChannelId,
      messageId: sent.id,
      group: { id: fake.world.guildId, name: 'Mycelium Lab' },
      sender: { channel: 'discord', externalId: fake.world.alice.user.id, displayName: 'Ali' },
      text: '/help',
      attachments: [],
    })
    expect(heard.raw).toBeInstanceOf(Message)
    expect((heard.raw as Message).id).toBe(sent.id)
    // createdAt comes from the snowflake: its high bits count milliseconds since 2015.
    expect(heard.receivedAt.getTime()).toBe(Number((BigInt(sent.id) >> 22n) + 1_420_070_400_000n))
  })

  it('gives a thread message the thread as its conversation, still in the guild', async () => {
    const { fake } = rig
    const sent = fake.say({
      channelId: fake.world.threadId,
      author: fake.world.bob,
      content: 'in the thread',
    })
    const heard = await rig.emitted.waitFor((message) => message.messageId === sent.id)
    expect(heard.conversationId).toBe(fake.world.threadId)
    expect(heard.group).toEqual({ id: fake.world.guildId, name: 'Mycelium Lab' })
    expect(heard.sender).toEqual({
      channel: 'discord',
      externalId: fake.world.bob.user.id,
      displayName: 'Bobby',
    })
  })

  it('makes a DM a conversation of its own, with no group', async () => {
    const { fake } = rig
    const dm = fake.world.dmChannelId(fake.world.carol.user.id)
    const sent = fake.say({ channelId: dm, author: fake.world.carol, content: 'psst' })
    const heard = await rig.emitted.waitFor((message) => message.messageId === sent.id)
    expect(heard.conversationId).toBe(dm)
    expect('group' in heard).toBe(false)
    expect(heard.sender).toEqual({
      channel: 'discord',
      externalId: fake.world.carol.user.id,
      displayName: 'carol',
    })
    expect(heard.text).toBe('psst')
  })

  it('carries attachments as URLs with their name, type and size', async () => {
    const { fake } = rig
    const bytes = new TextEncoder().encode('spore print')
    const file = fake.rest.host({ name: 'print.txt', bytes, contentType: 'text/plain' })
    const sent = fake.say({
      channelId: fake.world.textChannelId,
      author: fake.world.bob,
      content: 'see attached',
      attachments: [file],
    })
    const heard = await rig.emitted.waitFor((message) => message.messageId === sent.id)
    expect(heard.attachments).toEqual([
      { url: file.url, name: 'print.txt', contentType: 'text/plain', size: bytes.byteLength },
    ])
    const url = heard.attachments[0]?.url ?? ''
    expect(await (await fetch(url)).text()).toBe('spore print')
  })

  it("ignores other bots and the bot's own messages", async () => {
    const { fake } = rig
    fake.say({ channelId: fake.world.textChannelId, author: fake.world.otherBot, content: 'beep' })
    // The fake echoes the hypha's own message over the gateway, as Discord does.
    await rig.hypha.send(fake.world.textChannelId, { text: 'my own words' })
    const marker = fake.say({
      channelId: fake.world.textChannelId,
      author: fake.world.carol,
      content: 'marker',
    })
    await rig.emitted.waitFor((message) => message.messageId === marker.id)
    const texts = rig.emitted.entries.map((message) => message.text)
    expect(texts).not.toContain('beep')
    expect(texts).not.toContain('my own words')
  })
})

describe('inbound messages with a guild list', () => {
  it('hears only the listed guilds, and every DM', async () => {
    const rig = await connectedRig({ config: { guilds: ['123456789012345678'] } })
    try {
      const { fake } = rig
      fake.say({ channelId: fake.world.textChannelId, author: fake.world.alice, content: 'elsewhere' })
      const dm = fake.world.dmChannelId(fake.world.alice.user.id)
      const sent = fake.say({ channelId: dm, author: fake.world.alice, content: 'direct' })
      await rig.emitted.waitFor((message) => message.messageId === sent.id)
      expect(rig.emitted.entries.map((message) => message.text)).toEqual(['direct'])
    } finally {
      await rig.stop()
    }
  })
})
