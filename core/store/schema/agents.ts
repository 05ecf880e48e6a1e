import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { principals } from './principals.ts'

/**
 * A key an MCP client presents as a bearer token. Only a hash is kept, so a copied database
 * opens no agent; the key acts for one principal and never for more than their roles cover.
 */
export const agentKeys = sqliteTable(
  'agent_keys',
  {
    id: text('id').primaryKey(),
    label: text('label').notNull(),
    hash: text('hash').notNull(),
    principalId: text('principal_id')
      .notNull()
      .references(() => principals.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
    /** Where its person is asked to confirm, over chat; both null asks through the MCP client. */
    confirmChannel: text('confirm_channel'),
    confirmConversation: text('confirm_conversation'),
    /** Set once; a revoked key is kept so the list still says who had it. */
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
  },
  (table) => [index('agent_keys_principal_id').on(table.principalId)],
)

/**
 * An MCP connection a key opened, known by its id's hash, so a client can carry on after the bot
 * restarts. Resumed, it reads, but it lost the client's elicitation capability and writes nothing.
 */
export const agentSessions = sqliteTable(
  'agent_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    keyId: text('key_id')
      .notNull()
      .references(() => agentKeys.id, { onDelete: 'cascade' }),
    openedAt: integer('opened_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (table) => [index('agent_sessions_opened_at').on(table.openedAt)],
)
