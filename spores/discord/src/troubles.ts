import type { Health } from '@mycelo/septum'
import { DiscordAPIError, HTTPError, RateLimitError, RESTJSONErrorCodes } from 'discord.js'
import { renderWording } from './connect-refusal.ts'

/**
 * The English of what the operator reads about a live channel in the log and /health.
 * translations/en.yaml holds the same sentences under `trouble.*` (a test keeps them equal).
 */
export const TROUBLE_WORDING = {
  missing_permission:
    'Discord refused to let the bot post in {where} (missing permission, code {code}). To fix it: in ' +
    'that channel’s or server’s settings, give the bot’s role View Channel, Send Messages, Send ' +
    'Messages in Threads, Attach Files and Add Reactions.',
  members_intent:
    'Discord refused the member list of server {guild}: the Server Members Intent is off. To fix it: ' +
    'Discord Developer Portal → Applications → your bot → Bot → Privileged Gateway Intents, switch on ' +
    'Server Members Intent and save; no restart is needed.',
  rate_limited:
    'Discord rate-limited the bot: {count} message(s) wait to be sent in order, next try in {seconds} s',
  queue_full: "discord: not sent: {limit} messages already wait for Discord's rate limit to pass",
  gateway_dropped:
    'The Discord gateway connection dropped or went silent; discord.js is reconnecting by itself.',
  gateway_gave_up:
    'The Discord gateway closed the connection for good (code {code}); the bot connects again, waiting longer each time.',
} as const

export type TroubleSentence = keyof typeof TROUBLE_WORDING

export function troubleWords(
  sentence: TroubleSentence,
  params: Readonly<Record<string, string | number>>,
): string {
  return renderWording(
    TROUBLE_WORDING[sentence],
    Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)])),
  )
}

/**
 * Problems the operator can act on that do not stop the gateway (a channel the bot may not write
 * in, the member list the portal does not allow), each kept under a key until the same action
 * succeeds again. /health shows them while the gateway itself is ready.
 */
export class Troubles {
  readonly #current = new Map<string, string>()

  note(key: string, words: string): void {
    this.#current.set(key, words)
  }

  clear(key: string): void {
    this.#current.delete(key)
  }

  /** The gateway's own health, made degraded by any trouble still standing. */
  over(health: Health, extra: readonly string[] = []): Health {
    const all = [...this.#current.values(), ...extra]
    if (health.state !== 'healthy' || all.length === 0) return health
    return {
      state: 'degraded',
      detail: `${health.detail ?? 'gateway ready'}; ${all.join('; ')}`,
      checkedAt: health.checkedAt,
    }
  }
}

/** A send Discord refused because the bot lacks a permission in that channel (50013, or 50001 for access). */
export function isMissingPermission(error: unknown): boolean {
  return (
    error instanceof DiscordAPIError &&
    (error.code === RESTJSONErrorCodes.MissingPermissions || error.code === RESTJSONErrorCodes.MissingAccess)
  )
}

/** How long a rate-limited send asks to wait, or undefined for any other failure. */
export function rateLimitWait(error: unknown): number | undefined {
  if (!(error instanceof RateLimitError)) return undefined
  return Math.max(error.retryAfter, error.timeToReset, 0)
}

/**
 * A send that failed for now rather than for good: Discord answered 5xx (discord.js already
 * retried), the request timed out or was aborted, or the network failed before an answer.
 */
export function isTemporarySendFailure(error: unknown): boolean {
  if (error instanceof DiscordAPIError || error instanceof HTTPError) return error.status >= 500
  if (!(error instanceof Error)) return false
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return true
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' && NETWORK_CODES.test(code)
}

/** Node's and Bun's codes for a connection that failed on the way (not a refusal by Discord). */
const NETWORK_CODES =
  /^(E(CONN|TIMEDOUT|PIPE|AI_AGAIN|NOTFOUND|HOSTUNREACH|NETUNREACH)|Connection|FailedToOpenSocket)/
