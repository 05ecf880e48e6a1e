import type { Logger, SporeStorage } from '@mycelo/septum'
import { describeFailure } from './api.ts'

/** The key the next update id is kept under, so a restart neither replays nor loses updates. */
export const OFFSET_KEY = 'polling.offset'

/** At most one write of the offset in this long, however many batches arrive meanwhile. */
export const KEEP_EVERY_MS = 1_000

export interface KeptOffsetOptions {
  readonly storage: SporeStorage
  readonly logger: Logger
  readonly keepEveryMs?: number
}

/**
 * The next update id, kept in the spore's storage without a write per batch. Telegram itself
 * forgets every update below the offset the next getUpdates carries, and that poll leaves as soon
 * as a batch is handed on: the kept copy only matters for a restart before that poll reached
 * Telegram. So it is written at once when none was written for a while, else once the while is
 * over, and always on stop; an older copy replays nothing Telegram has already forgotten.
 */
export class KeptOffset {
  readonly #storage: SporeStorage
  readonly #logger: Logger
  readonly #everyMs: number
  #next: number | undefined
  #kept: number | undefined
  #lastWriteAt = Number.NEGATIVE_INFINITY
  #timer: ReturnType<typeof setTimeout> | undefined
  #writing: Promise<void> = Promise.resolve()

  constructor(options: KeptOffsetOptions) {
    this.#storage = options.storage
    this.#logger = options.logger
    this.#everyMs = options.keepEveryMs ?? KEEP_EVERY_MS
  }

  /** The offset to poll from: the kept one at first, then the latest handed on. */
  async load(): Promise<number | undefined> {
    this.#kept = await this.#storage.get<number>(OFFSET_KEY)
    this.#next ??= this.#kept
    return this.#next
  }

  get next(): number | undefined {
    return this.#next
  }

  /** The batch before `next` was handed on: keep it now, or once the interval is over. */
  advance(next: number): void {
    this.#next = next
    if (this.#timer !== undefined) return
    const waitMs = this.#lastWriteAt + this.#everyMs - performance.now()
    if (waitMs <= 0) {
      this.#write()
      return
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.#write()
    }, waitMs)
  }

  /** Writes what is not kept yet and waits for it: on stop, so a restart resumes exactly here. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer)
    this.#timer = undefined
    this.#write()
    await this.#writing
  }

  #write(): void {
    const next = this.#next
    if (next === undefined || next === this.#kept) return
    this.#lastWriteAt = performance.now()
    this.#writing = this.#writing
      .then(() => this.#storage.set(OFFSET_KEY, next))
      .then(() => {
        this.#kept = next
      })
      .catch((error: unknown) =>
        this.#logger.warn('telegram: the polling offset could not be kept', {
          error: describeFailure(error),
        }),
      )
  }
}
