import type { Health, Logger } from '@mycelo/septum'
import { type Client, Events, RESTEvents, Status } from 'discord.js'

/** Shard states from which discord.js is already finding its way back by itself. */
const RECOVERING: ReadonlySet<Status> = new Set([
  Status.Connecting,
  Status.Reconnecting,
  Status.Resuming,
  Status.Identifying,
  Status.WaitingForGuilds,
  Status.Nearly,
])

/** Ready → healthy, finding its way back → degraded, anything else (or no client) → unreachable. */
export function gatewayHealth(client: Client | undefined): Health {
  const checkedAt = new Date()
  if (client === undefined) return { state: 'unreachable', detail: 'not connected', checkedAt }
  const statuses = [...client.ws.shards.values()].map((shard) => shard.status)
  if (statuses.length > 0 && statuses.every((status) => status === Status.Ready)) {
    return { state: 'healthy', detail: `gateway ready (${client.ws.ping} ms heartbeat)`, checkedAt }
  }
  if (statuses.some((status) => RECOVERING.has(status))) {
    return { state: 'degraded', detail: 'gateway reconnecting', checkedAt }
  }
  return { state: 'unreachable', detail: 'gateway disconnected and not reconnecting', checkedAt }
}

/**
 * Logs what the gateway goes through. discord.js resumes or re-identifies by itself; these lines
 * are how an operator sees that it did. Answers the code of the last close discord.js gave up on.
 */
export function logGateway(client: Client, logger: Logger): { lastFatalClose(): number | undefined } {
  let fatalClose: number | undefined
  let sessions = 0
  client.on(Events.ShardDisconnect, (event, shard) => {
    fatalClose = event.code
    logger.warn('discord gateway closed and will not reconnect', { shard, code: event.code })
  })
  client.on(Events.ShardReconnecting, (shard) =>
    logger.warn('discord gateway dropped; reconnecting', { shard }),
  )
  client.on(Events.ShardResume, (shard, replayedEvents) =>
    logger.info('discord gateway resumed', { shard, replayedEvents }),
  )
  client.on(Events.ShardReady, (shard) => {
    sessions += 1
    if (sessions > 1) logger.info('discord gateway reconnected with a new session', { shard })
  })
  client.on(Events.ShardError, (error, shard) =>
    logger.warn('discord gateway error', { shard, error: error.message }),
  )
  client.on(Events.Error, (error) => logger.error('discord client error', { error: error.message }))
  client.on(Events.Warn, (message) => logger.warn(`discord: ${message}`))
  client.on(Events.Debug, (message) => logger.debug(`discord: ${message}`))
  client.rest.on(RESTEvents.RateLimited, (info) =>
    logger.info('discord rate limit reached', {
      route: info.route,
      method: info.method,
      retryAfterMs: info.retryAfter,
      global: info.global,
    }),
  )
  return { lastFatalClose: () => fatalClose }
}
