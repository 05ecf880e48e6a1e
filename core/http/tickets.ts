import { and, eq, gt, lte } from 'drizzle-orm'
import type { Store } from '../store/index.ts'
import { webLoginTickets } from '../store/schema/index.ts'
import { randomCode, randomToken, tokenHash } from './secrets.ts'

/** How long a link printed at start stays good: long enough to reach the browser, not a day. */
export const LINK_TTL_MS = 30 * 60_000
/** How long a chat code stays good. */
export const CODE_TTL_MS = 10 * 60_000

export interface IssueOptions {
  readonly principalId: string
  /** `link`: a long token for a URL; `code`: ten characters a person types. */
  readonly form: 'link' | 'code'
  readonly now: number
}

/** One-time login tickets, hashed in the store: the printed link and the chat code are both one. */
export function loginTickets(store: Store) {
  const { db } = store
  return {
    issue(options: IssueOptions): { secret: string; expiresAt: number } {
      const secret = options.form === 'link' ? randomToken() : randomCode()
      const expiresAt = options.now + (options.form === 'link' ? LINK_TTL_MS : CODE_TTL_MS)
      // Expired tickets are swept here rather than by a timer: issuing is rare.
      db.delete(webLoginTickets)
        .where(lte(webLoginTickets.expiresAt, new Date(options.now)))
        .run()
      db.insert(webLoginTickets)
        .values({
          tokenHash: tokenHash(secret),
          principalId: options.principalId,
          expiresAt: new Date(expiresAt),
        })
        .run()
      return { secret, expiresAt }
    },

    /** The principal a ticket opens, once: redeeming deletes it, and an expired one opens nothing. */
    redeem(secret: string, now: number): string | undefined {
      const typed = secret.trim()
      // A code may be typed in lower case; a link's token is taken exactly.
      const candidate = /^[a-z0-9]{10}$/i.test(typed) ? typed.toUpperCase() : typed
      const [row] = db
        .delete(webLoginTickets)
        .where(eq(webLoginTickets.tokenHash, tokenHash(candidate)))
        .returning()
        .all()
      if (row === undefined || row.expiresAt.getTime() <= now) return undefined
      return row.principalId
    },

    /** Whether any unexpired ticket is outstanding (for a test or a status line). */
    outstanding(now: number): number {
      return db
        .select()
        .from(webLoginTickets)
        .where(and(gt(webLoginTickets.expiresAt, new Date(now))))
        .all().length
    },
  }
}
