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
