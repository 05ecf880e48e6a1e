import type { Update } from '@grammyjs/types'
import {
  type Backoff,
  backoffMs,
  type Logger,
  PollLoop,
  type PollState,
  type SporeStorage,
} from '@mycelo/septum'
import type { Api } from 'grammy'
import { ALLOWED_UPDATES, describeFailure, isConflict, isTokenRejected, retryAfterMs } from './api.ts'
import { KeptOffset } from './offset.ts'
import { worded } from './wording.ts'

export interface PollingOptions {
  readonly api: Api
  readonly storage: SporeStorage
  readonly logger: Logger
  /** At most one write of the offset in this long (KEEP_EVERY_MS unless a test says). */
  readonly keepOffsetEveryMs?: number
  /** How long one getUpdates waits at Telegram for something to arrive. */
  readonly timeoutSeconds: number
  readonly backoff: Backoff
  /** Hands the updates on in order; the poll after it confirms them to Telegram. */
  readonly deliver: (updates: readonly Update[]) => Promise<void>
  readonly report: (state: PollState) => void
}

export interface TelegramPolling {
  start(): void
  /** Ends the poll under way and the loop, then keeps the offset reached. */
  stop(): Promise<void>
}

/**
 * Long polling: getUpdates from the kept offset, hand the updates on, poll again from the next
 * offset (which confirms them to Telegram), keeping it lazily (KeptOffset). A failure waits
 * Telegram's retry_after for a 429, else a doubling backoff; a rejected token ends the loop, for
 * the core's supervision to take over.
 */
export function telegramPolling(options: PollingOptions): TelegramPolling {
  const { api, storage, logger, timeoutSeconds, backoff, deliver, report } = options
  const kept = new KeptOffset({
    storage,
    logger,
    ...(options.keepOffsetEveryMs === undefined ? {} : { keepEveryMs: options.keepOffsetEveryMs }),
  })
  let loaded = false
  const loop = new PollLoop<Update[]>({
    async poll(signal, first) {
      if (!loaded) {
        await kept.load()
        loaded = true
      }
      const offset = kept.next
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
      kept.advance(last.update_id + 1)
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
  return {
    start: () => loop.start(),
    async stop() {
      await loop.stop()
      await kept.flush()
    },
  }
}
