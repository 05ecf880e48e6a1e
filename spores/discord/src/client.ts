import { once } from 'node:events'
import type { Logger } from '@mycelo/septum'
import { Client, Events, GatewayIntentBits, Partials } from 'discord.js'
import type { DiscordConfig } from './config.ts'
import { DiscordConnectError, diagnoseConnectFailure } from './connect-refusal.ts'
import { logGateway } from './gateway-state.ts'

const DISCORD_API = 'https://discord.com/api'

/**
 * Message Content is privileged: the portal must switch it on, or the gateway closes with 4014.
 * Server Members is not asked for: only the member list needs it, and that REST call works with the
 * portal switch alone, so an operator without it loses group checks rather than the whole channel.
 * DMs arrive for channels discord.js has never seen, hence the partial channel.
 */
const INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.DirectMessages,
]

/** Routes whose rate limit the hypha's own queue waits out, so a send never hangs inside discord.js. */
const QUEUED_ROUTES = /^\/channels\/:id\/messages/

function createClient(config: DiscordConfig): Client {
  return new Client({
    intents: INTENTS,
    partials: [Partials.Channel],
    rest: {
      api: config.apiBaseUrl ?? DISCORD_API,
      rejectOnRateLimit: (limit) => QUEUED_ROUTES.test(limit.route),
    },
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
    await Promise.race([
      client.login(config.token).then(() => ready),
      failureBeforeReady(client, controller.signal),
    ])
  } catch (error) {
    await client.destroy()
    throw diagnoseConnectFailure({ error, closeCode: gateway.lastFatalClose() })
  } finally {
    controller.abort()
  }
  if (!client.isReady()) throw new Error('discord: the client reported ready without a user')
  return client
}

/**
 * discord.js reconnects by itself, before READY too, so an unreachable gateway or one that closes
 * early would keep login pending for ever. The first such sign rejects instead, saying which.
 */
function failureBeforeReady(client: Client, signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    let unreachable = false
    const gateway = () => client.ws.gateway?.replace(/\/$/, '') ?? 'unknown'
    const onDebug = (message: string) => {
      if (message.includes('due to a network error')) unreachable = true
    }
    const onReconnecting = () => {
      const refusal = unreachable ? 'gateway_unreachable' : 'gateway_closed'
      reject(new DiscordConnectError(refusal, { gateway: gateway() }))
    }
    client.on(Events.Debug, onDebug)
    client.once(Events.ShardReconnecting, onReconnecting)
    signal.addEventListener('abort', () => {
      client.off(Events.Debug, onDebug)
      client.off(Events.ShardReconnecting, onReconnecting)
    })
  })
}
