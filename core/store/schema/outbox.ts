import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Messages the core accepted for sending and no channel has confirmed yet (migration 0010).
 * `content` is the OutgoingContent as JSON, attachment bytes in base64; `delivery_id` is the same
 * for every try, for a platform that deduplicates by it.
 */
export const outbox = sqliteTable('outbox', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  channel: text('channel').notNull(),
  conversationId: text('conversation_id').notNull(),
  deliveryId: text('delivery_id').notNull(),
  content: text('content').notNull(),
  acceptedAt: integer('accepted_at').notNull(),
})
