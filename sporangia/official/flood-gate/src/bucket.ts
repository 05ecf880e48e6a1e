// A token bucket per sender: `capacity` tokens, refilled evenly over the window, one spent per
// message. Pure, so the arithmetic is tested without a clock or a database.

export interface Bucket {
  readonly tokens: number
  /** When `tokens` was computed (ms since the epoch). */
  readonly at: number
  /** When the sender was last told to slow down, if ever. */
  readonly warnedAt?: number
}

export interface Rule {
  readonly capacity: number
  readonly windowMs: number
}

export interface Take {
  readonly allowed: boolean
  /** Refused, and not told yet in this window: the one time to say "slow down". */
  readonly warn: boolean
  readonly bucket: Bucket
}

/** The bucket refilled to `now`: a sender never seen starts full. */
export function refilled(bucket: Bucket | undefined, now: number, rule: Rule): Bucket {
  if (bucket === undefined) return { tokens: rule.capacity, at: now }
  const elapsed = Math.max(0, now - bucket.at)
  const tokens = Math.min(rule.capacity, bucket.tokens + (elapsed * rule.capacity) / rule.windowMs)
  return { ...bucket, tokens, at: now }
}

export function take(bucket: Bucket | undefined, now: number, rule: Rule): Take {
  const current = refilled(bucket, now, rule)
  if (current.tokens >= 1)
    return { allowed: true, warn: false, bucket: { ...current, tokens: current.tokens - 1 } }
  const warn = current.warnedAt === undefined || now - current.warnedAt >= rule.windowMs
  return { allowed: false, warn, bucket: warn ? { ...current, warnedAt: now } : current }
}

/** Whether a stored bucket says nothing a fresh one would not: full again, and its warning long past. */
export function isSpent(bucket: Bucket, now: number, rule: Rule): boolean {
  const current = refilled(bucket, now, rule)
  const warnedLately = current.warnedAt !== undefined && now - current.warnedAt < rule.windowMs
  return current.tokens >= rule.capacity && !warnedLately
}

/** The storage key of one sender's bucket. */
export const bucketKey = (channel: string, externalId: string) => `bucket:${channel}:${externalId}`
