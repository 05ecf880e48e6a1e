import { sql } from 'drizzle-orm'
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { sources } from './sources.ts'

/** Every spore germination has seen, with whether it runs and, when it does not, why. */
export const pluginInstalls = sqliteTable('plugin_installs', {
  name: text('name').primaryKey(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull(),
  reason: text('reason'),
  /** The source and strain it was inoculated from; null for a spore found on disk. */
  sourceId: text('source_id').references(() => sources.id, { onDelete: 'set null' }),
  strain: text('strain'),
  /** The strain an upgrade replaced, kept beside the installs folder so one rename rolls back. */
  previousSourceId: text('previous_source_id').references(() => sources.id, { onDelete: 'set null' }),
  previousStrain: text('previous_strain'),
  /**
   * What the spore was at its last readable germination: admission keeps an enforcing inhibitor's
   * guard closed from this when its manifest later cannot be read, or its folder is gone.
   */
  lastKind: text('last_kind'),
  lastEnforcing: integer('last_enforcing', { mode: 'boolean' }).notNull().default(false),
  /**
   * False from the moment a first start records the spore until its checks decided `enabled`: a
   * start interrupted in between decides again, as an uninterrupted one would have.
   */
  settled: integer('settled', { mode: 'boolean' }).notNull().default(true),
  installedAt: integer('installed_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
})

/**
 * One setting of one plugin, JSON-encoded. Not tied to an install row: settings outlive a
 * removal so that reinstalling a spore finds them again.
 */
export const pluginSettings = sqliteTable(
  'plugin_settings',
  {
    plugin: text('plugin').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    /** Redacts the value on read and in logs; storage stays plain text. */
    isSecret: integer('is_secret', { mode: 'boolean' }).notNull().default(false),
  },
  (table) => [primaryKey({ columns: [table.plugin, table.key] })],
)
