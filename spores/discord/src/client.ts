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

/** How long a connect may take, and one REST call; the hypha's defaults, shortened by tests. */
export interface ConnectDeadlines {
  /** From login to READY (every guild received): the handshake and READY included. */
  readonly connectMs: number
  /** One REST call, each try of it: discord.js aborts it after this long. */
  readonly restMs: number
}

export const DEFAULT_CONNECT_DEADLINES: ConnectDeadlines = { connectMs: 20_000, restMs: 15_000 }

function createClient(config: DiscordConfig, deadlines: ConnectDeadlines): Client {
  return new Client({
    intents: INTENTS,
    partials: [Partials.Channel],
    rest: {
      api: config.apiBaseUrl ?? DISCORD_API,
      rejectOnRateLimit: (limit) => QUEUED_ROUTES.test(limit.route),
      timeout: deadlines.restMs,
    },
    // A reply that echoes someone's "@everyone" must not ping a whole server.
    allowedMentions: { parse: ['users'], repliedUser: true },
  })
}

/**
 * Logs in and waits for the client's ready event (every guild received), with gateway logging
 * attached first. A refused token or intent rejects with a DiscordConnectError saying how to fix it.
 */
export async function connectClient(
  config: DiscordConfig,
  logger: Logger,
  deadlines: ConnectDeadlines = DEFAULT_CONNECT_DEADLINES,
): Promise<Client<true>> {
  const client = createClient(config, deadlines)
  const gateway = logGateway(client, logger)
  const controller = new AbortController()
  const ready = once(client, Events.ClientReady, { signal: controller.signal })
  // Observed below on success; on failure it is abandoned, and its abort must not surface.
  ready.catch(() => undefined)
  let identified = false
  let timer: ReturnType<typeof setTimeout> | undefined
  // Whatever the network does (a handshake never answered, a READY that never comes), this ends.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seconds = String(Math.round(deadlines.connectMs / 100) / 10)
      reject(new DiscordConnectError(identified ? 'ready_timed_out' : 'handshake_timed_out', { seconds }))
    }, deadlines.connectMs)
  })
  // discord.js says in its debug line when it sends IDENTIFY: from then on only READY is missing.
  client.on(Events.Debug, (message) => {
    if (message.includes('Identifying')) identified = true
  })
  try {
    await Promise.race([
      client.login(config.token).then(() => ready),
      failureBeforeReady(client, controller.signal),
      deadline,
    ])
  } catch (error) {
    await destroyWithin(client, deadlines.connectMs)
    throw diagnoseConnectFailure({ error, closeCode: gateway.lastFatalClose() })
  } finally {
    clearTimeout(timer)
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

/** Closing a half-open socket can wait for an answer that never comes: it is given up on in time. */
async function destroyWithin(client: Client, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  await Promise.race([client.destroy().catch(() => undefined), late])
  clearTimeout(timer)
}
