import { describe, expect, it } from 'bun:test'
import { Client, Events, GatewayIntentBits, GatewayOpcodes } from 'discord.js'
import { startFakeDiscord } from './fake/index.ts'
import { rawGateway } from './fake/raw-gateway.ts'

describe('the fake Discord gateway', () => {
  it('greets with HELLO, acknowledges heartbeats, and refuses a wrong token with 4004', async () => {
    const fake = startFakeDiscord({ heartbeatInterval: 250 })
    try {
      const gateway = await rawGateway(`${fake.gateway.url}?v=10&encoding=json`)
      expect((await gateway.next(GatewayOpcodes.Hello)).d).toEqual({ heartbeat_interval: 250 })
      gateway.socket.send(JSON.stringify({ op: GatewayOpcodes.Heartbeat, d: null }))
      expect((await gateway.next(GatewayOpcodes.HeartbeatAck)).op).toBe(GatewayOpcodes.HeartbeatAck)
      gateway.socket.send(JSON.stringify({ op: GatewayOpcodes.Identify, d: { token: 'wrong', intents: 0 } }))
      expect(await gateway.closed).toBe(4004)
    } finally {
      await fake.stop()
    }
  })

  it('refuses an encoding other than JSON with 4002, since it serves JSON only', async () => {
    const fake = startFakeDiscord()
    try {
      const gateway = await rawGateway(`${fake.gateway.url}?v=10&encoding=etf`)
      expect(await gateway.closed).toBe(4002)
    } finally {
      await fake.stop()
    }
  })

  it('answers a RESUME of an unknown session with INVALID_SESSION', async () => {
    const fake = startFakeDiscord()
    try {
      const gateway = await rawGateway(`${fake.gateway.resumeUrl}?v=10&encoding=json`)
      await gateway.next(GatewayOpcodes.Hello)
      gateway.socket.send(
        JSON.stringify({ op: GatewayOpcodes.Resume, d: { token: fake.token, session_id: 'gone', seq: 3 } }),
      )
      expect((await gateway.next(GatewayOpcodes.InvalidSession)).d).toBe(false)
      gateway.socket.close()
    } finally {
      await fake.stop()
    }
  })

  it('serves a bare discord.js client: guild.members.fetch() over the gateway and a reply on messageCreate', async () => {
    const fake = startFakeDiscord({ heartbeatInterval: 500 })
    const client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.MessageContent,
        GatewayIntentBits.GuildMembers,
      ],
      rest: { api: fake.restApi },
    })
    try {
      const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve))
      await client.login(fake.token)
      await ready
      const guild = client.guilds.cache.get(fake.world.guildId)
      const members = await guild?.members.fetch()
      expect([...(members?.keys() ?? [])].sort()).toEqual(
        fake.world.people.map((person) => person.user.id).sort(),
      )
      const requested = fake.gateway.received.entries.find(
        (frame) => frame.op === GatewayOpcodes.RequestGuildMembers,
      )
      expect(requested?.d).toMatchObject({ guild_id: fake.world.guildId, query: '', limit: 0 })

      client.on(Events.MessageCreate, (message) => {
        if (!message.author.bot) void message.channel.send(`echo: ${message.content}`)
      })
      fake.say({ channelId: fake.world.textChannelId, author: fake.world.alice, content: 'ping' })
      const reply = await fake.rest.requests.waitFor((request) => request.method === 'POST')
      expect(reply.path).toBe(`/channels/${fake.world.textChannelId}/messages`)
      expect(reply.body).toMatchObject({ content: 'echo: ping' })
    } finally {
      await client.destroy()
      await fake.stop()
    }
  })
})
