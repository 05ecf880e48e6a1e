import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { principals } from './principals.ts'

/** A named set of command patterns; a builtin role cannot be deleted or rewritten. */
export const roles = sqliteTable('roles', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull().unique(),
  builtin: integer('builtin', { mode: 'boolean' }).notNull().default(false),
})

/** One qualified-command pattern a role grants, such as `help.*` or `*`. */
export const roleCommands = sqliteTable(
  'role_commands',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    pattern: text('pattern').notNull(),
  },
  (table) => [primaryKey({ columns: [table.roleId, table.pattern] })],
)

/** Who holds which role; WITHOUT ROWID (migration 0009): the key is the row, one B-tree less per grant. */
export const principalRoles = sqliteTable(
  'principal_roles',
  {
    principalId: text('principal_id')
      .notNull()
      .references(() => principals.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.principalId, table.roleId] }),
    // A role's holders (the last-owner check, a role's deletion) are read by role.
    index('principal_roles_role_id').on(table.roleId),
  ],
)
