import type { Update } from '@grammyjs/types'
import { type Backoff, backoffMs, PollLoop, type PollState, type SporeStorage } from '@mycelo/septum'
import type { Api } from 'grammy'
import { ALLOWED_UPDATES, describeFailure, isConflict, isTokenRejected, retryAfterMs } from './api.ts'
import { worded } from './wording.ts'

/** The key the next update id is kept under, so a restart neither replays nor loses updates. */
export const OFFSET_KEY = 'polling.offset'

export interface PollingOptions {
  readonly api: Api
  readonly storage: SporeStorage
  /** How long one getUpdates waits at Telegram for something to arrive. */
  readonly timeoutSeconds: number
  readonly backoff: Backoff
  /** Hands the updates on in order; the poll after it confirms them to Telegram. */
  readonly deliver: (updates: readonly Update[]) => Promise<void>
  readonly report: (state: PollState) => void
}

/**
 * Long polling: getUpdates from the kept offset, hand the updates on, keep the next offset. A
 * failure waits Telegram's retry_after for a 429, else a doubling backoff; a rejected token ends the
 * loop, for the core's supervision to take over.
 */
export function telegramPolling(options: PollingOptions): PollLoop<Update[]> {
  const { api, storage, timeoutSeconds, backoff, deliver, report } = options
  let offset: number | undefined
  let loaded = false
  return new PollLoop<Update[]>({
    async poll(signal, first) {
      if (!loaded) {
        offset = await storage.get<number>(OFFSET_KEY)
        loaded = true
      }
      return api.getUpdates(
        {
          // The first poll answers at once, so health tells at once whether reading works.
          timeout: first ? 0 : timeoutSeconds,
          allowed_updates: [...ALLOWED_UPDATES],
          ...(offset === undefined ? {} : { offset }),
        },
        // grammY's Node typings name the abort-controller package's signal; the runtime takes Bun's own.
        signal as unknown as Parameters<Api['getUpdates']>[1],
      )
    },
    async deliver(updates) {
      const last = updates.at(-1)
      if (last === undefined) return
      await deliver(updates)
      offset = last.update_id + 1
      await storage.set(OFFSET_KEY, offset)
    },
    failure(error, attempt) {
      const reason = describeFailure(error)
      if (isTokenRejected(error)) return { refused: worded('token_rejected', { reason }) }
      const waitMs = retryAfterMs(error) ?? backoffMs(backoff, attempt)
      if (isConflict(error)) return { reason: worded('conflict', { reason }), waitMs }
      return { reason: worded('polling_failed', { reason, seconds: Math.ceil(waitMs / 1000) }), waitMs }
    },
    report,
  })
}
