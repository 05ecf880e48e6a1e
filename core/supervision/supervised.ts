/** Where a channel or a connected system stands, as every surface reads it. */
export type SupervisedState = 'connecting' | 'live' | 'reconnecting' | 'unreachable' | 'stopped'

export interface Supervised {
  readonly state: SupervisedState
  /** The reconnect attempt under way (1 for the first retry), while reconnecting. */
  readonly attempt?: number
  /** When the next attempt is due, while reconnecting, when it is known. */
  readonly nextAt?: Date
  /** When the state last changed. */
  readonly lastChange: Date
  /** The last failure seen: a connect() error, a drop, or what health() said when it was not healthy. */
  readonly lastError?: string
}

/** Renders one of the core's `supervision.*` catalogue keys, in the locale of whoever reads it. */
export type SupervisionWords = (key: string, params: Readonly<Record<string, unknown>>) => string

/**
 * The operator's sentence for a state, in the reader's words: `reconnecting (attempt 2, next in
 * 4 s): …`, `reconnecting (attempt 1)` when the next try's time is the channel's own, `unreachable: …`,
 * `connecting`.
 */
export function describeSupervised(
  supervised: Supervised,
  words: SupervisionWords,
  now = Date.now(),
): string {
  const state = stateWords(supervised, words, now)
  if (state === undefined) return supervised.state
  const why = supervised.lastError
  return why ? words('because', { state, why }) : state
}

function stateWords(supervised: Supervised, words: SupervisionWords, now: number): string | undefined {
  switch (supervised.state) {
    case 'reconnecting': {
      const attempt = supervised.attempt ?? 1
      if (supervised.nextAt === undefined) return words('reconnectingNow', { attempt })
      const seconds = Math.max(0, Math.ceil((supervised.nextAt.getTime() - now) / 1000))
      return words('reconnecting', { attempt, seconds })
    }
    case 'unreachable':
      return words('unreachable', {})
    case 'connecting':
      return words('connecting', {})
    default:
      return undefined
  }
}

/** Exponential backoff with jitter: 1 s, 2 s, 4 s … up to `maxMs`, each ±20 %. */
export function backoffMs(attempt: number, { initialMs = 1_000, maxMs = 60_000 } = {}): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(base * (0.8 + Math.random() * 0.4))
}
