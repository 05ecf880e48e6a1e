import { type Backoff, backoffMs, PollLoop, type PollState, type SporeStorage } from '@mycelo/septum'
import type { ISyncResponse, MatrixClient } from 'matrix-js-sdk'
import { Method } from 'matrix-js-sdk/lib/matrix.js'
import { describeFailure, isTokenRejected, retryAfterMs } from './client.ts'
import { worded } from './wording.ts'

/** The key the next batch token is kept under, so a restart neither replays history nor loses messages. */
export const SINCE_KEY = 'sync.since'

/** What the bot reads: room events, invites and its own account data (m.direct); no presence or receipts. */
const FILTER = JSON.stringify({
  presence: { not_types: ['*'] },
  room: { ephemeral: { not_types: ['*'] }, timeline: { limit: 50 } },
})

export interface SyncOptions {
  readonly client: MatrixClient
  readonly storage: SporeStorage
  /** How long one /sync waits at the homeserver for something to happen. */
  readonly timeoutMs: number
  readonly backoff: Backoff
  /** Hands a sync response on; `catchingUp` is true for the first sync ever, whose timeline is history. */
  readonly deliver: (sync: ISyncResponse, catchingUp: boolean) => Promise<void>
  readonly report: (state: PollState) => void
}

/**
 * /sync from the kept since token, the response handed on, the next token kept. A failure waits the
 * homeserver's retry_after_ms for M_LIMIT_EXCEEDED, else a doubling backoff; an unknown token ends
 * the loop, for the core's supervision to take over.
 */
export function matrixSync(options: SyncOptions): PollLoop<ISyncResponse> {
  const { client, storage, timeoutMs, backoff, deliver, report } = options
  let since: string | undefined
  let loaded = false
  return new PollLoop<ISyncResponse>({
    async poll(signal, first) {
      if (!loaded) {
        since = await storage.get<string>(SINCE_KEY)
        loaded = true
      }
      const params: Record<string, string> = { filter: FILTER, timeout: String(first ? 0 : timeoutMs) }
      if (since !== undefined) params.since = since
      return client.http.authedRequest<ISyncResponse>(Method.Get, '/sync', params, undefined, {
        abortSignal: signal,
        localTimeoutMs: timeoutMs + 30_000,
        priority: 'auto',
      })
    },
    async deliver(sync) {
      await deliver(sync, since === undefined)
      since = sync.next_batch
      await storage.set(SINCE_KEY, since)
    },
    failure(error, attempt) {
      const reason = describeFailure(error)
      if (isTokenRejected(error)) return { refused: worded('token_rejected', { reason }) }
      const waitMs = retryAfterMs(error) ?? backoffMs(backoff, attempt)
      return { reason: worded('sync_failed', { reason, seconds: Math.ceil(waitMs / 1000) }), waitMs }
    },
    report,
  })
}
