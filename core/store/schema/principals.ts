import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/**
 * A person the bot knows, across every channel they were heard on. Ids are UUIDv7, so newcomers are
 * appended at the end of the key order instead of scattered over the table's pages. The table is
 * WITHOUT ROWID (migration 0009, which drizzle cannot express): first contact writes one B-tree less.
 */
export const principals = sqliteTable('principals', {
  id: text('id').primaryKey(),
  displayName: text('display_name'),
  /** The reader's own language choice; null falls back to the conversation's, then the default. */
  locale: text('locale'),
  /** Set once an operator has looked at a newcomer. */
  reviewed: integer('reviewed', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
})

/**
 * Who a principal is on one channel; one identity belongs to exactly one principal. The id orders a
 * principal's identities by when they were added; it is a plain rowid, since AUTOINCREMENT would
 * write its counter's table on every first contact.
 */
export const channelIdentities = sqliteTable(
  'channel_identities',
  {
    id: integer('id').primaryKey(),
    principalId: text('principal_id')
      .notNull()
      .references(() => principals.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    externalId: text('external_id').notNull(),
    displayName: text('display_name'),
  },
  (table) => [
    uniqueIndex('channel_identities_channel_external_id').on(table.channel, table.externalId),
    // Loading a principal reads their identities by principal: without it, a scan per lookup.
    index('channel_identities_principal_id').on(table.principalId),
  ],
)
