import { sql } from 'drizzle-orm'
import { check, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * A conversation the bot has seen: where it is and how to answer it, never what was said. WITHOUT
 * ROWID (migration 0009, which drizzle cannot express): a new conversation writes one B-tree, not two.
 */
export const conversations = sqliteTable(
  'conversations',
  {
    channel: text('channel').notNull(),
    conversationId: text('conversation_id').notNull(),
    kind: text('kind', { enum: ['dm', 'group'] }).notNull(),
    label: text('label'),
    locale: text('locale'),
    firstSeen: integer('first_seen', { mode: 'timestamp_ms' }).notNull(),
    lastSeen: integer('last_seen', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.channel, table.conversationId] }),
    check('conversations_kind', sql`${table.kind} in ('dm', 'group')`),
  ],
)

/** Where a broadcast goes; chosen by an operator, not derived from traffic. */
export const broadcastTargets = sqliteTable(
  'broadcast_targets',
  {
    channel: text('channel').notNull(),
    conversationId: text('conversation_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.channel, table.conversationId] })],
)
