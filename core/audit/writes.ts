import type { MyceliumScope } from '@mycelo/septum'

/**
 * The methods of each scope that change something: these are audited, reads are not. A scope
 * missing here has no write (and a new write method must be added here to be audited).
 */
export const WRITE_METHODS: { readonly [S in MyceliumScope]?: readonly string[] } = {
  'principals.manage': ['markReviewed', 'setDisplayName'],
  'roles.assign': ['assignRole', 'revokeRole'],
  'roles.manage': ['createRole', 'setRoleCommands', 'deleteRole'],
  'plugins.toggle': ['enable', 'disable', 'rescan'],
  'plugins.configure': ['setSetting', 'unsetSetting'],
  'messages.broadcast': ['broadcast'],
  'restrictions.manage': [
    'setContextRule',
    'clearContextRule',
    'setInhibitorChannels',
    'confineInhibitor',
    'addBroadcastTarget',
    'removeBroadcastTarget',
  ],
  'locale.manage': ['setPrincipalLocale', 'setConversationLocale'],
  'sources.manage': [
    'addSource',
    'updateSource',
    'deleteSource',
    'inoculate',
    'upgrade',
    'rollBack',
    'uninstall',
  ],
  'web.login': ['loginCode'],
  'agents.manage': ['createAgentKey', 'revokeAgentKey', 'confirmAgentKeyIn'],
}
