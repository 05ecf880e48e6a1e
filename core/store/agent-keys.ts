import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { PushTarget } from '@mycelo/septum'
import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Store } from './open.ts'
import { agentKeys } from './schema/index.ts'

export interface AgentKeyRecord {
  readonly id: string
  readonly label: string
  readonly principalId: string
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
  readonly revokedAt: Date | null
  /** The conversation its confirmations are asked in; null asks through the MCP client. */
  readonly confirmIn: PushTarget | null
}

const PREFIX = 'mycelo_ak_'

/**
 * Creates a key for `principalId` and answers it once: only its hash is stored. The id travels in
 * the key so a lookup is one indexed read, and the secret is 256 random bits, so a fast hash is enough.
 */
export function createAgentKey(
  store: Store,
  key: { label: string; principalId: string },
): { record: AgentKeyRecord; secret: string } {
  const id = randomBytes(6).toString('hex')
  const secret = randomBytes(32).toString('base64url')
  store.db
    .insert(agentKeys)
    .values({ id, label: key.label, principalId: key.principalId, hash: digest(secret) })
    .run()
  return { record: agentKeyOf(store, id)!, secret: `${PREFIX}${id}_${secret}` }
}

export function agentKeyOf(store: Store, id: string): AgentKeyRecord | undefined {
  const row = store.db.select().from(agentKeys).where(eq(agentKeys.id, id)).get()
  return row === undefined ? undefined : recordOf(row)
}

/** Every key, revoked ones included, oldest first; `principalId` narrows to one person's. */
export function listAgentKeys(store: Store, principalId?: string): AgentKeyRecord[] {
  const query = store.db.select().from(agentKeys)
  const rows = principalId === undefined ? query : query.where(eq(agentKeys.principalId, principalId))
  return rows.orderBy(asc(agentKeys.createdAt), asc(agentKeys.id)).all().map(recordOf)
}

/** Revokes a live key; false when there is no such key or it was already revoked. */
export function revokeAgentKey(store: Store, id: string): boolean {
  const result = store.db
    .update(agentKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(agentKeys.id, id), isNull(agentKeys.revokedAt)))
    .returning({ id: agentKeys.id })
    .all()
  return result.length > 0
}

/** The live key a bearer token names, or undefined for a malformed, unknown, wrong or revoked one. */
export function verifyAgentKey(store: Store, token: string): AgentKeyRecord | undefined {
  if (!token.startsWith(PREFIX)) return undefined
  const rest = token.slice(PREFIX.length)
  const split = rest.indexOf('_')
  if (split <= 0) return undefined
  const row = store.db
    .select()
    .from(agentKeys)
    .where(eq(agentKeys.id, rest.slice(0, split)))
    .get()
  if (row === undefined || row.revokedAt !== null) return undefined
  const given = Buffer.from(digest(rest.slice(split + 1)), 'hex')
  const kept = Buffer.from(row.hash, 'hex')
  if (given.length !== kept.length || !timingSafeEqual(given, kept)) return undefined
  return recordOf(row)
}

/** Records a use; the list shows it, so an operator can tell a forgotten key from a busy one. */
export function touchAgentKey(store: Store, id: string): void {
  store.db.update(agentKeys).set({ lastUsedAt: new Date() }).where(eq(agentKeys.id, id)).run()
}

/** Moves a key's confirmations to a conversation, or back to the client with null. */
export function setAgentKeyConfirmation(store: Store, id: string, where: PushTarget | null): void {
  store.db
    .update(agentKeys)
    .set({ confirmChannel: where?.channel ?? null, confirmConversation: where?.conversationId ?? null })
    .where(eq(agentKeys.id, id))
    .run()
}

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

function recordOf(row: typeof agentKeys.$inferSelect): AgentKeyRecord {
  const { hash: _hash, confirmChannel, confirmConversation, ...record } = row
  const confirmIn =
    confirmChannel !== null && confirmConversation !== null
      ? { channel: confirmChannel, conversationId: confirmConversation }
      : null
  return { ...record, confirmIn }
}
