import type { Update } from '@grammyjs/types'
import type { SporeStorage } from '@mycelo/septum'
import type { Api } from 'grammy'
import { ALLOWED_UPDATES, describeFailure, isConflict, isTokenRejected, retryAfterMs } from './api.ts'
import { worded } from './wording.ts'

/** The key the next update id is kept under, so a restart neither replays nor loses updates. */
export const OFFSET_KEY = 'polling.offset'

export interface Backoff {
  /** The wait before the first retry; doubling up to maxMs. */
  readonly initialMs: number
  readonly maxMs: number
}

export interface PollingOptions {
  readonly api: Api
  readonly storage: SporeStorage
  /** How long one getUpdates waits at Telegram for something to arrive. */
  readonly timeoutSeconds: number
  readonly backoff: Backoff
  /** Hands the updates on in order; the poll after it confirms them to Telegram. */
  readonly deliver: (updates: readonly Update[]) => Promise<void>
  /** Told of every change: answering again, failing and retrying, or refused for good. */
  readonly report: (state: PollingState) => void
}

export type PollingState =
  | { readonly kind: 'polling' }
  | { readonly kind: 'retrying'; readonly reason: string; readonly attempt: number; readonly inMs: number }
  | { readonly kind: 'refused'; readonly reason: string }

/**
 * The long-polling loop: getUpdates from the kept offset, hand the updates on, keep the next
 * offset, again. A failure waits (Telegram's retry_after for a 429, else a doubling backoff) and
 * tries again; a rejected token ends the loop, for the core's supervision to take over.
 */
export class Polling {
  readonly #controller = new AbortController()
  #running: Promise<void> | undefined

  constructor(private readonly options: PollingOptions) {}

  start(): void {
    this.#running ??= this.#loop()
  }

  /** Aborts the poll under way (Telegram keeps what it had not confirmed) and waits for the loop to end. */
  async stop(): Promise<void> {
    this.#controller.abort()
    await this.#running
  }

  async #loop(): Promise<void> {
    const { api, storage, timeoutSeconds, backoff, deliver, report } = this.options
    const signal = this.#controller.signal
    let offset = await storage.get<number>(OFFSET_KEY)
    let attempt = 0
    let answering = false
    while (!signal.aborted) {
      let updates: Update[]
      try {
        updates = await api.getUpdates(
          {
            // The first poll answers at once, so health tells at once whether reading works.
            timeout: answering ? timeoutSeconds : 0,
            allowed_updates: [...ALLOWED_UPDATES],
            ...(offset === undefined ? {} : { offset }),
          },
          // grammY's Node typings name the abort-controller package's signal; the runtime takes Bun's own.
          signal as unknown as Parameters<Api['getUpdates']>[1],
        )
      } catch (error) {
        if (signal.aborted) return
        const reason = describeFailure(error)
        if (isTokenRejected(error))
          return report({ kind: 'refused', reason: worded('token_rejected', { reason }) })
        attempt += 1
        answering = false
        const inMs = retryAfterMs(error) ?? Math.min(backoff.initialMs * 2 ** (attempt - 1), backoff.maxMs)
        const words = isConflict(error)
          ? worded('conflict', { reason })
          : worded('polling_failed', { reason, seconds: Math.ceil(inMs / 1000) })
        report({ kind: 'retrying', reason: words, attempt, inMs })
        await sleep(inMs, signal)
        continue
      }
      if (!answering) report({ kind: 'polling' })
      answering = true
      attempt = 0
      const last = updates.at(-1)
      if (last === undefined) continue
      await deliver(updates)
      offset = last.update_id + 1
      await storage.set(OFFSET_KEY, offset)
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
