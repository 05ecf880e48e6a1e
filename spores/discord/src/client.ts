import { once } from 'node:events'
import type { Logger } from '@mycelo/septum'
import { Client, Events, GatewayIntentBits, Partials } from 'discord.js'
import type { DiscordConfig } from './config.ts'
import { diagnoseConnectFailure } from './connect-refusal.ts'
import { logGateway } from './gateway-state.ts'

const DISCORD_API = 'https://discord.com/api'

/**
 * Message Content and Server Members are privileged: the portal must switch them on, or the gateway
 * closes with 4014. DMs arrive for channels discord.js has never seen, hence the partial channel.
 */
const INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.DirectMessages,
  GatewayIntentBits.GuildMembers,
]

function createClient(config: DiscordConfig): Client {
  return new Client({
    intents: INTENTS,
    partials: [Partials.Channel],
    rest: { api: config.apiBaseUrl ?? DISCORD_API },
    // A reply that echoes someone's "@everyone" must not ping a whole server.
    allowedMentions: { parse: ['users'], repliedUser: true },
  })
}

/**
 * Logs in and waits for the client's ready event (every guild received), with gateway logging
 * attached first. A refused token or intent rejects with a DiscordConnectError saying how to fix it.
 */
export async function connectClient(config: DiscordConfig, logger: Logger): Promise<Client<true>> {
  const client = createClient(config)
  const gateway = logGateway(client, logger)
  const controller = new AbortController()
  const ready = once(client, Events.ClientReady, { signal: controller.signal })
  // Observed below on success; on failure it is abandoned, and its abort must not surface.
  ready.catch(() => undefined)
  try {
    await client.login(config.token)
    await ready
  } catch (error) {
    await client.destroy()
    throw await diagnoseConnectFailure({
      error,
      closeCode: gateway.lastFatalClose(),
      token: config.token,
      api: config.apiBaseUrl ?? DISCORD_API,
    })
  } finally {
    controller.abort()
  }
  if (!client.isReady()) throw new Error('discord: the client reported ready without a user')
  return client
}
