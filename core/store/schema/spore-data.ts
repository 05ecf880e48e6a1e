import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

const now = sql`(unixepoch('subsec') * 1000)`

/**
 * septum 1.1 storage: one JSON value per key in a spore's own namespace. Not tied to an install
 * row, like settings: an uninstall that keeps the data leaves it for a reinstall to find.
 */
export const sporeData = sqliteTable(
  'spore_data',
  {
    spore: text('spore').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(now),
  },
  (table) => [primaryKey({ columns: [table.spore, table.key] })],
)

/** The storage migrations each spore has applied, so each runs once. */
export const sporeMigrations = sqliteTable(
  'spore_migrations',
  {
    spore: text('spore').notNull(),
    version: integer('version').notNull(),
    appliedAt: integer('applied_at', { mode: 'timestamp_ms' }).notNull().default(now),
  },
  (table) => [primaryKey({ columns: [table.spore, table.version] })],
)

/** septum 1.1 schedules: a cron expression or a one-shot time, persisted so they survive restarts. */
export const sporeSchedules = sqliteTable(
  'spore_schedules',
  {
    spore: text('spore').notNull(),
    id: text('id').notNull(),
    /** Null for a one-shot. */
    cron: text('cron'),
    /** The one-shot's time; null for a cron schedule. */
    at: integer('at', { mode: 'number' }),
    timeZone: text('time_zone').notNull(),
    missedPolicy: text('missed_policy', { enum: ['run-once', 'skip'] }).notNull(),
    data: text('data').notNull().default('null'),
    /** Epoch milliseconds of the next run; null once a one-shot has run and failed. */
    nextAt: integer('next_at', { mode: 'number' }),
    lastRunAt: integer('last_run_at', { mode: 'number' }),
    lastError: text('last_error'),
  },
  (table) => [
    primaryKey({ columns: [table.spore, table.id] }),
    // The one timer asks for the nearest due time: an index keeps that cheap with many rows.
    index('spore_schedules_next_at').on(table.nextAt),
  ],
)
