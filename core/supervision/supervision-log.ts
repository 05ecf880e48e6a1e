import type { Logger } from '@mycelo/septum'
import {
  describeSupervised,
  type Supervised,
  type SupervisedState,
  type SupervisionWords,
} from './supervised.ts'

export interface SupervisionLogOptions {
  readonly logger: Logger
  readonly words: SupervisionWords
  /** The shortest gap between two losses logged for one spore. */
  readonly gapMs: number
}

/** Down: reaching nothing. Connecting is on its way, not lost; stopped was asked for. */
const DOWN: ReadonlySet<SupervisedState> = new Set(['reconnecting', 'unreachable'])

/**
 * The log lines of supervised state changes, worded from the catalogue. A loss is logged at most
 * once per gap, and its return once after it: a flapping spore writes two lines per gap, the next
 * loss naming how many changes went unlogged in between.
 */
export class SupervisionLog {
  readonly #options: SupervisionLogOptions
  readonly #logged = new Map<string, { at: number; saved: number; lostSaid: boolean }>()

  constructor(options: SupervisionLogOptions) {
    this.#options = options
  }

  changed(name: string, from: SupervisedState | undefined, to: Supervised): void {
    const { logger, words, gapMs } = this.#options
    // A spore first seen live, or connecting, has lost nothing; one first seen down has.
    if (from === undefined && !DOWN.has(to.state)) return
    const now = Date.now()
    const last = this.#logged.get(name) ?? { at: Number.NEGATIVE_INFINITY, saved: 0, lostSaid: false }
    this.#logged.set(name, last)
    const meta = { spore: name, from: from ?? 'connecting', state: describeSupervised(to, words, now) }
    if (!DOWN.has(to.state)) {
      if (to.state === 'connecting') return
      if (!last.lostSaid) {
        last.saved++
        return
      }
      last.lostSaid = false
      if (to.state === 'live') logger.info(words('back', {}), meta)
      return
    }
    // Down to down (unreachable, then reconnecting) is the same loss, already said or counted.
    if (from !== undefined && DOWN.has(from) && last.lostSaid) return
    if (now - last.at < gapMs) {
      last.saved++
      return
    }
    const unlogged = last.saved
    Object.assign(last, { at: now, saved: 0, lostSaid: true })
    logger.warn(words('lost', {}), { ...meta, ...(unlogged ? { unlogged } : {}) })
  }
}
