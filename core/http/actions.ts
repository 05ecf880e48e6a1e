/**
 * Each API action and the chat command pattern that guards the same action, so a web session
 * may do exactly what its principal's roles let them do in chat. The API's routes guard with
 * `requireCommand(commandFor('plugins.enable'))` (or the pattern itself).
 */
export const ACTION_COMMANDS = {
  'plugins.list': 'admin.plugins',
  'plugins.enable': 'admin.enable',
  'plugins.disable': 'admin.disable',
  'plugins.settings': 'admin.settings',
  'plugins.set': 'admin.set',
  'plugins.unset': 'admin.unset',
  'plugins.form': 'admin.form',
  'health.read': 'admin.health',
  'principals.list': 'admin.people',
  'principals.review': 'admin.review',
  'principals.rename': 'admin.rename',
  'roles.list': 'admin.roles',
  'roles.create': 'admin.role-create',
  'roles.set': 'admin.role-set',
  'roles.delete': 'admin.role-delete',
  'roles.grant': 'admin.grant',
  'roles.revoke': 'admin.revoke',
  'conversations.list': 'admin.conversations',
  'rules.list': 'admin.rules',
  'rules.set': 'admin.rule',
  'inhibitors.confine': 'admin.confine',
  'targets.list': 'admin.targets',
  'targets.add': 'admin.target-add',
  'targets.remove': 'admin.target-remove',
  'broadcast.send': 'admin.broadcast',
  'locale.set': 'admin.lang',
  'locale.setConversation': 'admin.lang-group',
  'sources.list': 'admin.sources',
  'sources.add': 'admin.source-add',
  'sources.edit': 'admin.source-set',
  'sources.enable': 'admin.source-enable',
  'sources.disable': 'admin.source-disable',
  'sources.delete': 'admin.source-delete',
  'sources.offered': 'admin.offered',
  'spores.install': 'admin.install',
  'spores.upgrade': 'admin.upgrade',
  'spores.rollBack': 'admin.rollback',
  'spores.uninstall': 'admin.uninstall',
  // No chat command reads the audit log: only `admin.*` or `*` cover this pattern.
  'audit.read': 'admin.audit',
} as const

export type ApiAction = keyof typeof ACTION_COMMANDS

/** The command pattern (`plugin.command`) that guards `action` in chat. */
export function commandFor(action: ApiAction): string {
  return ACTION_COMMANDS[action]
}
