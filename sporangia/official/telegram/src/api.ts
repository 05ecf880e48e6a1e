import { Api, GrammyError, HttpError } from 'grammy'
import type { TelegramConfig } from './config.ts'

/** Telegram's own Bot API; a self-hosted telegram-bot-api server replaces it through `apiRoot`. */
export const TELEGRAM_API = 'https://api.telegram.org'

/** The updates the bot reads: messages, their edits, and who joins or leaves (group membership). */
export const ALLOWED_UPDATES = ['message', 'edited_message', 'chat_member', 'my_chat_member'] as const

export function apiRootOf(config: Pick<TelegramConfig, 'apiRoot'>): string {
  return (config.apiRoot ?? TELEGRAM_API).replace(/\/+$/, '')
}

/** grammY's client for the Bot API. A call never waits longer than a long poll plus a margin. */
export function createApi(config: TelegramConfig): Api {
  return new Api(config.token, {
    apiRoot: apiRootOf(config),
    timeoutSeconds: 75,
    // The token sits in every URL: grammY then keeps URLs out of the errors it throws.
    sensitiveLogs: false,
  })
}

/** How long a refusal asks to wait (429 with retry_after), or undefined for any other failure. */
export function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof GrammyError) || error.error_code !== 429) return undefined
  return Math.max(0, error.parameters.retry_after ?? 1) * 1000
}

/** Telegram refused the token itself: 401, or 404 for one whose form it does not even route. */
export function isTokenRejected(error: unknown): boolean {
  return error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)
}

/** Telegram, or the way to it, is down: a network failure or a 5xx. Trying later can work. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof HttpError || (error instanceof GrammyError && error.error_code >= 500)
}

/** A chat Telegram will not deliver to: the user blocked the bot, or the bot left or was removed. */
export function isForbidden(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 403
}

/** Another getUpdates reader, or a webhook set by someone else meanwhile. */
export function isConflict(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 409
}

/** What went wrong, as one short line for the operator: Telegram's own description when it gave one. */
export function describeFailure(error: unknown): string {
  if (error instanceof GrammyError) return `${error.error_code} ${error.description}`
  if (error instanceof HttpError) {
    const cause = error.error instanceof Error ? error.error.message : String(error.error)
    return `network error: ${withoutToken(cause)}`
  }
  return withoutToken(error instanceof Error ? error.message : String(error))
}

/** A fetch error may quote the URL, and every Bot API URL carries the token after `/bot`. */
function withoutToken(text: string): string {
  return text.replace(/\/(file\/)?bot[^/\s]+/g, '/$1bot…')
}
