/** Where a channel or a connected system stands, as every surface reads it. */
export type SupervisedState = 'connecting' | 'live' | 'reconnecting' | 'unreachable' | 'stopped'

export interface Supervised {
  readonly state: SupervisedState
  /** The reconnect attempt under way (1 for the first retry), while reconnecting. */
  readonly attempt?: number
  /** When the next attempt is due, while reconnecting. */
  readonly nextAt?: Date
  /** When the state last changed. */
  readonly lastChange: Date
  /** The last failure seen: a connect() error, or what health() said when it was not healthy. */
  readonly lastError?: string
}

/** The operator's sentence for a state: `reconnecting (attempt 2, next in 4 s)`, `unreachable: …`. */
export function describeSupervised(supervised: Supervised, now = Date.now()): string {
  if (supervised.state === 'reconnecting') {
    const inS = supervised.nextAt ? Math.max(0, Math.ceil((supervised.nextAt.getTime() - now) / 1000)) : 0
    const why = supervised.lastError ? `: ${supervised.lastError}` : ''
    return `reconnecting (attempt ${supervised.attempt ?? 1}, next in ${inS} s)${why}`
  }
  if (supervised.state === 'unreachable') {
    return supervised.lastError ? `unreachable: ${supervised.lastError}` : 'unreachable'
  }
  return supervised.state
}

/** Exponential backoff with jitter: 1 s, 2 s, 4 s … up to `maxMs`, each ±20 %. */
export function backoffMs(attempt: number, { initialMs = 1_000, maxMs = 60_000 } = {}): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(base * (0.8 + Math.random() * 0.4))
}
