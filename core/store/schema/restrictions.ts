import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Limits a qualified command (`plugin.command`) to some conversation kinds. */
export const commandContextRules = sqliteTable('command_context_rules', {
  command: text('command').primaryKey(),
  /** A JSON array of `dm` and/or `group`. */
  allowedKinds: text('allowed_kinds').notNull(),
})

/** Confines an inhibitor to the listed channels; an inhibitor with no row judges every channel. */
export const inhibitorChannels = sqliteTable(
  'inhibitor_channels',
  {
    inhibitor: text('inhibitor').notNull(),
    channel: text('channel').notNull(),
  },
  (table) => [primaryKey({ columns: [table.inhibitor, table.channel] })],
)
