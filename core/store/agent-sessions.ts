import { createHash } from 'node:crypto'
import { eq, lt } from 'drizzle-orm'
import type { Store } from './open.ts'
import { agentSessions } from './schema/index.ts'

/** How long an MCP connection may be resumed after it was opened. */
const KEPT_MS = 7 * 24 * 60 * 60_000

/**
 * Remembers an MCP connection a key opened, by its id's hash (the id is a bearer of sorts), and
 * lets go of the ones opened too long ago.
 */
export function rememberAgentSession(store: Store, sessionId: string, keyId: string): void {
  store.db
    .delete(agentSessions)
    .where(lt(agentSessions.openedAt, new Date(Date.now() - KEPT_MS)))
    .run()
  store.db
    .insert(agentSessions)
    .values({ idHash: digest(sessionId), keyId })
    .onConflictDoNothing()
    .run()
}

/** The key that opened a connection this bot no longer holds in memory; undefined when none did. */
export function agentSessionKey(store: Store, sessionId: string): string | undefined {
  const row = store.db
    .select()
    .from(agentSessions)
    .where(eq(agentSessions.idHash, digest(sessionId)))
    .get()
  if (row === undefined || row.openedAt.getTime() < Date.now() - KEPT_MS) return undefined
  return row.keyId
}

/** The client ended the connection: it is never resumed. */
export function forgetAgentSession(store: Store, sessionId: string): void {
  store.db
    .delete(agentSessions)
    .where(eq(agentSessions.idHash, digest(sessionId)))
    .run()
}

function digest(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex')
}
