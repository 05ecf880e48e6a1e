import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { principals } from './principals.ts'

/**
 * A signed-in browser, acting as one principal. Only a hash of its token is kept, so a copied
 * database opens no session; `id` is the public handle used to list and revoke it.
 */
export const webSessions = sqliteTable(
  'web_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    id: text('id').notNull().unique(),
    principalId: text('principal_id')
      .notNull()
      .references(() => principals.id, { onDelete: 'cascade' }),
    /** Sent back on every state-changing request; worthless without the cookie. */
    csrfToken: text('csrf_token').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }).notNull(),
    /** Pushed forward on each use, never past `expiresAt`. */
    idleExpiresAt: integer('idle_expires_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [index('web_sessions_principal').on(table.principalId)],
)

/** A one-time login link or chat code, hashed; redeeming it deletes it. */
export const webLoginTickets = sqliteTable('web_login_tickets', {
  tokenHash: text('token_hash').primaryKey(),
  principalId: text('principal_id')
    .notNull()
    .references(() => principals.id, { onDelete: 'cascade' }),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
})

/** Every write through a mycelium function, on any surface: who, what, when, and how it ended. */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at', { mode: 'timestamp_ms' }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
    /** principal | agent | operator | spore */
    actorKind: text('actor_kind').notNull(),
    /** The principal id, `cli`, or the spore acting on its own. */
    actor: text('actor').notNull(),
    /** Where it came through: a channel (`web` for the page and API), `cli`, an agent, a spore. */
    via: text('via').notNull(),
    /** `scope.method`, e.g. `plugins.toggle.enable`. */
    method: text('method').notNull(),
    /** JSON of the arguments, secrets masked. */
    args: text('args').notNull(),
    /** ok | refused | failed */
    outcome: text('outcome').notNull(),
    /** The refusal's catalogue key, or the fault's message. */
    detail: text('detail'),
  },
  (table) => [index('audit_log_at').on(table.at)],
)
