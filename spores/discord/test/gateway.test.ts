import { describe, expect, it } from 'bun:test'
import { GatewayOpcodes } from 'discord.js'
import { DiscordHypha } from '../src/hypha.ts'
import { connectedRig } from './harness.ts'

describe('the gateway connection', () => {
  it('answers heartbeats and reports a ready gateway as healthy', async () => {
    const rig = await connectedRig()
    try {
      await rig.fake.gateway.received.waitFor((frame) => frame.op === GatewayOpcodes.Heartbeat)
      const health = await rig.hypha.health()
      expect(health.state).toBe('healthy')
      expect(health.checkedAt).toBeInstanceOf(Date)
    } finally {
      await rig.stop()
    }
  })

  it('resumes after a forced close, logs it, and still emits the next message', async () => {
    const rig = await connectedRig()
    try {
      const { fake } = rig
      const before = fake.say({
        channelId: fake.world.textChannelId,
        author: fake.world.alice,
        content: 'before',
      })
      await rig.emitted.waitFor((message) => message.messageId === before.id)
      fake.gateway.drop(4000)
      await rig.logs.waitFor((line) => line.message === 'discord gateway dropped; reconnecting')
      // discord.js waits before reconnecting: the gateway is on its way back, not gone.
      expect((await rig.hypha.health()).state).toBe('degraded')
      const resume = await fake.gateway.received.waitFor((frame) => frame.op === GatewayOpcodes.Resume)
      expect(resume.path).toBe('/resume')
      expect(resume.d).toMatchObject({
        token: fake.token,
        session_id: expect.any(String),
        seq: expect.any(Number),
      })
      await rig.logs.waitFor((line) => line.message === 'discord gateway resumed')
      const after = fake.say({
        channelId: fake.world.textChannelId,
        author: fake.world.alice,
        content: 'after',
      })
      await rig.emitted.waitFor((message) => message.messageId === after.id)
      expect((await rig.hypha.health()).state).toBe('healthy')
      const identifies = fake.gateway.received.entries.filter((frame) => frame.op === GatewayOpcodes.Identify)
      expect(identifies).toHaveLength(1)
    } finally {
      await rig.stop()
    }
  })

  it('replays what was dispatched while the socket was down', async () => {
    const rig = await connectedRig()
    try {
      const { fake } = rig
      fake.gateway.sever()
      await rig.logs.waitFor((line) => line.message === 'discord gateway dropped; reconnecting')
      expect(fake.gateway.liveSockets).toBe(0)
      const missed = fake.say({
        channelId: fake.world.threadId,
        author: fake.world.bob,
        content: 'while you were out',
      })
      const heard = await rig.emitted.waitFor((message) => message.messageId === missed.id)
      expect(heard.conversationId).toBe(fake.world.threadId)
      await rig.logs.waitFor((line) => line.message === 'discord gateway resumed')
    } finally {
      await rig.stop()
    }
  })

  it('reports unreachable once stopped, and before any connect', async () => {
    expect((await new DiscordHypha().health()).state).toBe('unreachable')
    const rig = await connectedRig()
    await rig.stop()
    const health = await rig.hypha.health()
    expect(health).toMatchObject({ state: 'unreachable', detail: 'not connected' })
    // A clean stop closes the socket itself: no drop, no reconnect, is logged for it.
    const gatewayLines = rig.logs.entries
      .map((line) => line.message)
      .filter((text) => text.startsWith('discord gateway'))
    expect(gatewayLines).toEqual([])
  })

  it('refuses listen() before connect()', async () => {
    await expect(new DiscordHypha().listen()).rejects.toThrow('discord: listen() called before connect()')
  })
})
