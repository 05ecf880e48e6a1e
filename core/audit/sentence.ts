// What an audited write did, as the words of a sentence: for each method, the parameters its
// catalogue sentence (`page.audit.op.<method>`) takes, read from the arguments exactly as the
// mycelium method received them. Free of imports, so the page and the tests share it.

/** Names for what the log records by id; each answers undefined when it does not know the id. */
export interface AuditNames {
  /** A person by principal id: the name the bot shows for them. */
  person(id: string): string | undefined
  /** A person as their channel knows them (for a rename: the name before the bot's own). */
  personAsMet?(id: string): string | undefined
  /** A conversation by channel and id: its name, or the person a direct one is with. */
  conversation?(channel: string, conversationId: string): string | undefined
  /** A language by its code, in the reader's words. */
  language?(code: string): string | undefined
  /** An agent key by id: its label. */
  agentKey?(id: string): string | undefined
}

type Params = Record<string, string>

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? ''))
const field = (value: unknown, key: string): string =>
  typeof value === 'object' && value !== null ? text((value as Record<string, unknown>)[key]) : ''

function person(names: AuditNames, id: unknown): string {
  return names.person(text(id)) ?? text(id)
}

function conversation(names: AuditNames, target: unknown): Params {
  const channel = field(target, 'channel')
  const id = field(target, 'conversationId')
  return { conversation: names.conversation?.(channel, id) ?? id, channel }
}

function language(names: AuditNames, code: unknown): string {
  return names.language?.(text(code)) ?? text(code)
}

/** The kinds of conversation a rule allows, as the sentence's select reads them. */
function where(value: unknown): string {
  const kinds = (Array.isArray(value) ? value : [value]).map(text)
  return kinds.includes('dm') && kinds.includes('group') ? 'both' : (kinds[0] ?? '')
}

const BUILDERS: Readonly<Record<string, (args: readonly unknown[], names: AuditNames) => Params>> = {
  'principals.manage.markReviewed': ([id], names) => ({ person: person(names, id) }),
  'principals.manage.setDisplayName': ([id, name], names) => ({
    person: names.personAsMet?.(text(id)) ?? person(names, id),
    name: text(name),
    // An empty name gives the person back the name their channel shows.
    reset: text(name) === '' ? 'yes' : 'no',
  }),
  'roles.assign.assignRole': ([id, role], names) => ({ person: person(names, id), role: text(role) }),
  'roles.assign.revokeRole': ([id, role], names) => ({ person: person(names, id), role: text(role) }),
  'roles.manage.createRole': ([role]) => ({ role: text(role) }),
  'roles.manage.setRoleCommands': ([role]) => ({ role: text(role) }),
  'roles.manage.deleteRole': ([role]) => ({ role: text(role) }),
  'plugins.toggle.enable': ([spore]) => ({ spore: text(spore) }),
  'plugins.toggle.disable': ([spore]) => ({ spore: text(spore) }),
  'plugins.toggle.rescan': () => ({}),
  'plugins.configure.setSetting': ([spore, key]) => ({ spore: text(spore), setting: text(key) }),
  'plugins.configure.unsetSetting': ([spore, key]) => ({ spore: text(spore), setting: text(key) }),
  'messages.broadcast.broadcast': () => ({}),
  'restrictions.manage.setContextRule': ([command, kinds]) => ({
    command: text(command),
    where: where(kinds),
  }),
  'restrictions.manage.clearContextRule': ([command]) => ({ command: text(command) }),
  'restrictions.manage.setInhibitorChannels': ([filter, channels]) => channelsOf(filter, channels),
  'restrictions.manage.confineInhibitor': ([filter, channels]) => channelsOf(filter, channels),
  'restrictions.manage.addBroadcastTarget': ([target], names) => conversation(names, target),
  'restrictions.manage.removeBroadcastTarget': ([target], names) => conversation(names, target),
  'locale.manage.setPrincipalLocale': ([id, code], names) => ({
    person: person(names, id),
    language: language(names, code),
  }),
  'locale.manage.setConversationLocale': ([channel, id, code], names) => ({
    ...conversation(names, { channel, conversationId: id }),
    language: language(names, code),
  }),
  'sources.manage.addSource': ([source]) => ({ source: field(source, 'label') }),
  'sources.manage.updateSource': ([id]) => ({ source: text(id) }),
  'sources.manage.deleteSource': ([id]) => ({ source: text(id) }),
  'sources.manage.inoculate': ([request]) => ({
    spore: field(request, 'spore'),
    source: field(request, 'source'),
  }),
  'sources.manage.upgrade': ([spore]) => ({ spore: text(spore) }),
  'sources.manage.rollBack': ([spore]) => ({ spore: text(spore) }),
  'sources.manage.uninstall': ([spore, options]) => ({
    spore: text(spore),
    data: (options as { keepData?: unknown } | undefined)?.keepData === false ? 'deleted' : 'kept',
  }),
  'web.login.loginCode': () => ({}),
  'agents.manage.createAgentKey': ([label]) => ({ key: text(label) }),
  'agents.manage.revokeAgentKey': ([id], names) => ({ key: names.agentKey?.(text(id)) ?? text(id) }),
  'agents.manage.confirmAgentKeyIn': ([id, target], names) => ({
    key: names.agentKey?.(text(id)) ?? text(id),
    ...(target === null || target === undefined
      ? { where: 'client', conversation: '', channel: '' }
      : { where: 'chat', ...conversation(names, target) }),
  }),
}

function channelsOf(filter: unknown, channels: unknown): Params {
  const list = Array.isArray(channels) ? channels.map(text) : []
  return { filter: text(filter), count: String(list.length), channels: list.join(', ') }
}

/**
 * The parameters of the sentence for an audited method, or undefined for a method this core has
 * no sentence for (an older log's, say): the page then shows it as it was recorded.
 */
export function auditSentenceParams(method: string, args: unknown, names: AuditNames): Params | undefined {
  const build = BUILDERS[method]
  return build === undefined ? undefined : build(Array.isArray(args) ? args : [], names)
}

/** Every method with a sentence: each must have its catalogue key in every language. */
export const AUDITED_SENTENCES: readonly string[] = Object.keys(BUILDERS)
