import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Update, WebhookInfo } from '@grammyjs/types'
import type { Health, SporeStorage } from '@mycelo/septum'
import type { Api } from 'grammy'
import { ALLOWED_UPDATES, describeFailure } from './api.ts'
import { worded } from './wording.ts'

/** The header Telegram carries the webhook's secret token in. */
export const SECRET_HEADER = 'x-telegram-bot-api-secret-token'

/** The key a secret the hypha made is kept under, so a restart keeps the webhook Telegram holds. */
const SECRET_KEY = 'webhook.secret'

/** How long what getWebhookInfo said is trusted by health(). */
const INFO_TTL_MS = 30_000

/** A delivery error older than this is history, not the webhook's state. */
const RECENT_ERROR_S = 10 * 60

/** The operator's secret, else the one made earlier, else a new one (kept). */
export async function webhookSecret(configured: string | undefined, storage: SporeStorage): Promise<string> {
  if (configured !== undefined) return configured
  const kept = await storage.get<string>(SECRET_KEY)
  if (typeof kept === 'string' && kept.length > 0) return kept
  const made = randomBytes(32).toString('base64url')
  await storage.set(SECRET_KEY, made)
  return made
}

/** Asks Telegram to post updates to `url`; a refusal names the address and says how to fix it. */
export async function registerWebhook(api: Api, url: string, secret: string): Promise<void> {
  try {
    await api.setWebhook(url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] })
  } catch (error) {
    throw new Error(worded('webhook_refused', { url, reason: describeFailure(error) }), { cause: error })
  }
}

/** Whether a request carries the secret; compared in constant time, over digests of equal length. */
export function carriesSecret(request: Request, secret: string): boolean {
  const given = request.headers.get(SECRET_HEADER)
  if (given === null) return false
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(given), digest(secret))
}

/** The update in a webhook's body, or undefined when the body is not one. */
export async function updateOf(request: Request): Promise<Update | undefined> {
  const body: unknown = await request.json().catch(() => undefined)
  if (typeof body !== 'object' || body === null) return undefined
  const id = (body as { update_id?: unknown }).update_id
  return Number.isSafeInteger(id) ? (body as Update) : undefined
}

/**
 * The webhook's health as Telegram sees it (getWebhookInfo, asked at most every 30 s): replaced
 * by another address, failing deliveries, or well.
 */
export class WebhookHealth {
  #info: { readonly at: number; readonly health: Health } | undefined

  constructor(
    private readonly api: Api,
    private readonly url: string,
  ) {}

  async check(): Promise<Health> {
    if (this.#info !== undefined && Date.now() - this.#info.at < INFO_TTL_MS) return this.#info.health
    const health = await this.#ask()
    this.#info = { at: Date.now(), health }
    return health
  }

  async #ask(): Promise<Health> {
    const checkedAt = new Date()
    let info: WebhookInfo
    try {
      info = await this.api.getWebhookInfo()
    } catch (error) {
      return {
        state: 'unreachable',
        detail: worded('unavailable', { reason: describeFailure(error), api: 'Telegram' }),
        checkedAt,
      }
    }
    const current = info.url ?? ''
    if (current !== this.url) {
      const reason = current === '' ? 'no webhook is set' : `the webhook now points at ${current}`
      return { state: 'unreachable', detail: worded('webhook_refused', { url: this.url, reason }), checkedAt }
    }
    const lastError = info.last_error_date
    if (lastError !== undefined && Date.now() / 1000 - lastError < RECENT_ERROR_S) {
      const reason = info.last_error_message ?? 'unknown error'
      const detail = worded('webhook_failing', { url: this.url, reason, pending: info.pending_update_count })
      return { state: 'degraded', detail, checkedAt }
    }
    return {
      state: 'healthy',
      detail: `webhook ${this.url} (${info.pending_update_count} pending)`,
      checkedAt,
    }
  }
}
