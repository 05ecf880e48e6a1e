/** The four plugin kinds, one septum each. */
export const PLUGIN_KINDS = ['hypha', 'rhiza', 'enzyme', 'inhibitor'] as const
export type PluginKind = (typeof PLUGIN_KINDS)[number]

/** What a channel (hypha) can do beyond plain text. */
export const CHANNEL_CAPABILITIES = ['attachments', 'reactions', 'threads', 'group_membership'] as const
export type ChannelCapability = (typeof CHANNEL_CAPABILITIES)[number]

/** Every scope a spore may be granted on the `mycelium` requirement. */
export const MYCELIUM_SCOPES = [
  'plugins.read',
  'health.read',
  'messages.send',
  'principals.read',
  'principals.manage',
  'roles.read',
  'roles.assign',
  'roles.manage',
  'plugins.toggle',
  'plugins.configure',
  'messages.broadcast',
  'conversations.read',
  'restrictions.manage',
  'locale.manage',
  'commands.read',
  'sources.manage',
  'web.login',
] as const
export type MyceliumScope = (typeof MYCELIUM_SCOPES)[number]

/** The core itself, reachable as a rhiza under this name and never installed. */
export const MYCELIUM = 'mycelium'

/** The domain every spore may read and none owns. */
export const COMMON_DOMAIN = 'common'

/** What a secret setting reads back as; writing it to a secret key changes nothing. */
export const SECRET_MASK = '••••'

/** A conversation is either with one person or in a group. */
export type ConversationKind = 'dm' | 'group'
