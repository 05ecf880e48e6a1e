import { and, eq, gt, lte, ne, or, sql } from 'drizzle-orm'
import type { Store } from '../store/index.ts'
import { webSessions } from '../store/schema/index.ts'
import { randomToken, tokenHash } from './secrets.ts'

/** How long a session lives without use, and at most, unless the config says otherwise. */
export const DEFAULT_SESSION_LIMITS = { idleMs: 2 * 60 * 60_000, absoluteMs: 7 * 24 * 60 * 60_000 } as const

export interface SessionLimits {
  readonly idleMs: number
  readonly absoluteMs: number
}

/** One session as its owner sees it in a listing: never its token. */
export interface SessionInfo {
  readonly id: string
  readonly principalId: string
  readonly createdAt: number
  readonly lastSeenAt: number
  readonly idleExpiresAt: number
  readonly expiresAt: number
}

export interface LiveSession extends SessionInfo {
  readonly csrfToken: string
}

/** Web sessions over the store: the cookie's token is only ever held as a hash. */
export function sessionBook(store: Store, limits: SessionLimits = DEFAULT_SESSION_LIMITS) {
  const { db } = store
  const info = (row: typeof webSessions.$inferSelect): LiveSession => ({
    id: row.id,
    principalId: row.principalId,
    csrfToken: row.csrfToken,
    createdAt: row.createdAt.getTime(),
    lastSeenAt: row.lastSeenAt.getTime(),
    idleExpiresAt: row.idleExpiresAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
  })
  return {
    /** Opens a session for `principalId`; answers the cookie's token, shown once. */
    open(principalId: string, now: number): { token: string; session: LiveSession } {
      const token = randomToken()
      const expiresAt = now + limits.absoluteMs
      const row = db
        .insert(webSessions)
        .values({
          tokenHash: tokenHash(token),
          id: randomToken().slice(0, 16),
          principalId,
          csrfToken: randomToken(),
          createdAt: new Date(now),
          lastSeenAt: new Date(now),
          idleExpiresAt: new Date(Math.min(now + limits.idleMs, expiresAt)),
          expiresAt: new Date(expiresAt),
        })
        .returning()
        .get()
      return { token, session: info(row) }
    },

    /**
     * The session a cookie's token opens, its idle expiry pushed forward; undefined (and the row
     * gone) once either expiry has passed.
     */
    touch(token: string, now: number): LiveSession | undefined {
      const hash = tokenHash(token)
      const at = new Date(now)
      // One statement on every request's path: the row moves forward only while neither expiry has passed.
      const updated = db
        .update(webSessions)
        .set({ lastSeenAt: at, idleExpiresAt: sql`min(${now + limits.idleMs}, ${webSessions.expiresAt})` })
        .where(
          and(
            eq(webSessions.tokenHash, hash),
            gt(webSessions.idleExpiresAt, at),
            gt(webSessions.expiresAt, at),
          ),
        )
        .returning()
        .get()
      if (updated !== undefined) return info(updated)
      // Expired (or never there): the row goes.
      db.delete(webSessions).where(eq(webSessions.tokenHash, hash)).run()
      return undefined
    },

    /** Every unexpired session of one principal, newest first. */
    list(principalId: string, now: number): SessionInfo[] {
      this.sweep(now)
      return db
        .select()
        .from(webSessions)
        .where(eq(webSessions.principalId, principalId))
        .all()
        .map(info)
        .map(({ csrfToken: _, ...rest }) => rest)
        .sort((a, b) => b.createdAt - a.createdAt)
    },

    /** Revokes one of `principalId`'s sessions by its public id; answers whether there was one. */
    revoke(principalId: string, id: string): boolean {
      const removed = db
        .delete(webSessions)
        .where(and(eq(webSessions.principalId, principalId), eq(webSessions.id, id)))
        .returning({ id: webSessions.id })
        .all()
      return removed.length > 0
    },

    /** Revokes every session of one principal; answers how many. */
    revokeAll(principalId: string): number {
      return db.delete(webSessions).where(eq(webSessions.principalId, principalId)).returning().all().length
    },

    /** Revokes every session of one principal but `keep` (the one asking): sign out everywhere else. */
    revokeOthers(principalId: string, keep: string): number {
      return db
        .delete(webSessions)
        .where(and(eq(webSessions.principalId, principalId), ne(webSessions.id, keep)))
        .returning({ id: webSessions.id })
        .all().length
    },

    /** Drops the sessions past either expiry. */
    sweep(now: number): void {
      const at = new Date(now)
      db.delete(webSessions)
        .where(or(lte(webSessions.idleExpiresAt, at), lte(webSessions.expiresAt, at)))
        .run()
    },
  }
}

export type SessionBook = ReturnType<typeof sessionBook>
