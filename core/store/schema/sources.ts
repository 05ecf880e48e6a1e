import { sql } from 'drizzle-orm'
import { check, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** A sporangium spores can be installed from. */
export const sources = sqliteTable(
  'sources',
  {
    id: text('id').primaryKey(),
    label: text('label').notNull(),
    url: text('url').notNull(),
    /** Sent to the source; never read back through any API, which answers the mask instead. */
    token: text('token'),
    /**
     * The Ed25519 key (`ed25519:<base64>`) its strains must be signed with: given when the source
     * is added, or pinned from the first signed index read from it; never replaced by an index.
     */
    publisherKey: text('publisher_key'),
    trust: text('trust', { enum: ['official', 'third-party'] }).notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    createdAt: integer('created_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (table) => [check('sources_trust', sql`${table.trust} in ('official', 'third-party')`)],
)
