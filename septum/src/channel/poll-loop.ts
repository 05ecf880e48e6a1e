/** How a failed poll goes on: refused for good (the core's supervision takes over), or retried after a wait. */
export type PollFailure = { readonly refused: string } | { readonly reason: string; readonly waitMs: number }

/** Where a poll loop stands, as it tells its hypha at each change. */
export type PollState =
  | { readonly kind: 'polling' }
  | { readonly kind: 'retrying'; readonly reason: string; readonly attempt: number; readonly inMs: number }
  | { readonly kind: 'refused'; readonly reason: string }

export interface Backoff {
  /** The wait before the first retry; doubling up to maxMs. */
  readonly initialMs: number
  readonly maxMs: number
}

export interface PollLoopOptions<T> {
  /** One long poll; `first` is true until one has answered since the loop (re)started failing. */
  readonly poll: (signal: AbortSignal, first: boolean) => Promise<T>
  /** Hands a batch on, and keeps where to resume from; the next poll starts after it resolves. */
  readonly deliver: (batch: T) => Promise<void>
  /** Reads a failure: refused for good, or how long to wait (the service's word, else `backoffMs`). */
  readonly failure: (error: unknown, attempt: number) => PollFailure
  /** Told of every change: answering again, failing and retrying, or refused. */
  readonly report: (state: PollState) => void
}

/** The doubling wait of the `attempt`th retry (1 for the first). */
export function backoffMs(backoff: Backoff, attempt: number): number {
  return Math.min(backoff.initialMs * 2 ** (attempt - 1), backoff.maxMs)
}

/**
 * The loop of a channel that long-polls its service (Telegram's getUpdates, Matrix's /sync): poll,
 * deliver, again. A failure waits and tries again, telling each attempt and its wait; a refusal ends
 * the loop. stop() aborts the poll under way and waits for the loop to end.
 */
export class PollLoop<T> {
  readonly #controller = new AbortController()
  #running: Promise<void> | undefined

  constructor(private readonly options: PollLoopOptions<T>) {}

  start(): void {
    this.#running ??= this.#loop()
  }

  async stop(): Promise<void> {
    this.#controller.abort()
    await this.#running
  }

  async #loop(): Promise<void> {
    const { poll, deliver, failure, report } = this.options
    const signal = this.#controller.signal
    let attempt = 0
    let answering = false
    while (!signal.aborted) {
      let batch: T
      try {
        batch = await poll(signal, !answering)
      } catch (error) {
        if (signal.aborted) return
        attempt += 1
        answering = false
        const read = failure(error, attempt)
        if ('refused' in read) return report({ kind: 'refused', reason: read.refused })
        report({ kind: 'retrying', reason: read.reason, attempt, inMs: read.waitMs })
        await sleep(read.waitMs, signal)
        continue
      }
      if (!answering) report({ kind: 'polling' })
      answering = true
      attempt = 0
      await deliver(batch)
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
