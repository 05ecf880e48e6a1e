import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Mycelium } from '@mycelo/septum'
import { garden } from './garden.ts'
import { type Bot, dmWith, startBot } from './harness.ts'

type Scopes = Mycelium<
  'messages.send' | 'messages.broadcast' | 'health.read' | 'conversations.read' | 'restrictions.manage'
>

let bot: Bot
let mycelium: Scopes

beforeAll(async () => {
  bot = await startBot(garden())
  mycelium = bot.surface<Scopes>('steward')
})

afterAll(async () => {
  await bot.stop()
})

describe('messages.send', () => {
  it("sends through the channel's hypha", async () => {
    await mycelium.send({ channel: 'chat', conversationId: 'room-1' }, { text: 'hello room' })
    expect(bot.takeSent('chat', 'room-1')).toEqual(['hello room'])
  })

  it('rejects when the channel cannot deliver: a fault, not a refusal', async () => {
    await expect(mycelium.send({ channel: 'nowhere', conversationId: 'x' }, { text: 'hi' })).rejects.toThrow(
      'channel "nowhere" is not live; nothing was sent',
    )
    await expect(mycelium.send({ channel: 'jammed', conversationId: 'x' }, { text: 'hi' })).rejects.toThrow(
      'jammed is jammed',
    )
  })
})

describe('messages.broadcast', () => {
  it('sends nothing when no target is configured', async () => {
    expect(await mycelium.broadcast({ text: 'anyone?' })).toEqual([])
  })

  it('sends to every configured target and reports each, one failure stopping none', async () => {
    const targets = [
      { channel: 'chat', conversationId: 'news' },
      { channel: 'jammed', conversationId: 'news' },
      { channel: 'rich', conversationId: 'lobby' },
    ]
    for (const target of targets) expect(await mycelium.addBroadcastTarget(target)).toBeUndefined()
    expect(await mycelium.broadcast({ text: 'we ship today' })).toEqual([
      { target: targets[0]!, ok: true },
      { target: targets[1]!, ok: false, error: 'jammed is jammed' },
      { target: targets[2]!, ok: true },
    ])
    expect(bot.takeSent('chat', 'news')).toEqual(['we ship today'])
    expect(bot.takeSent('rich', 'lobby')).toEqual(['we ship today'])
  })
})

describe('health.read', () => {
  it("reports every live rhiza's and channel's health by name, a throwing one as unreachable", async () => {
    const health = await mycelium.health()
    expect(health).toEqual([
      // The two sends refused above (messages.send, then the broadcast) are counted by the outbox.
      {
        name: 'jammed',
        state: 'degraded',
        detail: 'jammed is jammed; outbox: 2 messages refused by the channel since start-up',
        checkedAt: new Date(0),
      },
      { name: 'shaky', state: 'unreachable', detail: 'shaky does not answer', checkedAt: expect.any(Date) },
      { name: 'vault', state: 'healthy', detail: 'vault is fine', checkedAt: new Date(0) },
    ])
  })
})

describe('conversations.read', () => {
  it('lists every conversation the bot has seen, with its kind', async () => {
    expect(await mycelium.listConversations()).toEqual([])
    await bot.emit('chat', 'hello', { from: 'ann', displayName: 'Ann' })
    await bot.emit('rich', 'hello all', { from: 'ann', group: 'g-7' })
    const conversations = await mycelium.listConversations()
    expect(
      conversations.map(({ channel, conversationId, kind, label }) => ({
        channel,
        conversationId,
        kind,
        label,
      })),
    ).toEqual([
      { channel: 'chat', conversationId: dmWith('ann'), kind: 'dm', label: 'Ann' },
      { channel: 'rich', conversationId: 'g-7', kind: 'group', label: 'Group g-7' },
    ])
    expect(conversations[0]?.lastSeen).toBeInstanceOf(Date)
  })

  it('does not record a message the inhibitors refused', async () => {
    await bot.emit('chat', 'quiet please #hush', { from: 'bob' })
    const seen = (await mycelium.listConversations()).map((conversation) => conversation.conversationId)
    expect(seen).not.toContain(dmWith('bob'))
  })
})
