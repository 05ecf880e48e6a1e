import type { Health } from '@mycelo/septum'
import { DiscordAPIError, RateLimitError, RESTJSONErrorCodes } from 'discord.js'

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
