import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

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
  // What a message from someone not in memory needs besides the row itself, kept true by the
  // triggers of migration 0011 (drizzle cannot express them) after every write to the tables they
  // sum up; code never writes these three.
  /** The ids of the roles held, joined by commas (`3,17`); null for none. */
  roleIds: text('role_ids'),
  /** How many channel identities are theirs. */
  identityCount: integer('identity_count').notNull().default(0),
  /** The display name their identity carries, when it is their only one; else null. */
  soleIdentityName: text('sole_identity_name'),
})

/**
 * Who a principal is on one channel; one identity belongs to exactly one principal. Keyed by the
 * identity itself and WITHOUT ROWID (migration 0009, which drizzle cannot express): the lookup every
 * message makes reads the table directly, and first contact writes two B-trees, not three. A
 * principal's identities are read in the order they were added.
 */
export const channelIdentities = sqliteTable(
  'channel_identities',
  {
    channel: text('channel').notNull(),
    externalId: text('external_id').notNull(),
    principalId: text('principal_id')
      .notNull()
      .references(() => principals.id, { onDelete: 'cascade' }),
    displayName: text('display_name'),
    addedAt: integer('added_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (table) => [
    primaryKey({ columns: [table.channel, table.externalId] }),
    // Loading a principal reads their identities by principal, in the order they were added.
    index('channel_identities_principal_id').on(table.principalId, table.addedAt),
  ],
)
