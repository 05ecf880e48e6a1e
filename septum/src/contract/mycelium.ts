import type { JsonSchema } from './config.ts'
import type {
  ChannelIdentity,
  ConversationInfo,
  OutgoingContent,
  Principal,
  PushTarget,
  RhizaHealth,
} from './message.ts'
import type { Outcome, OutcomeOf } from './outcome.ts'
import type { ChannelCapability, ConversationKind, MyceliumScope, PluginKind } from './vocabulary.ts'

export type PluginState = 'live' | 'disabled' | 'dormant'

export interface PluginInfo {
  readonly name: string
  /** Absent when the manifest was refused before a known kind could be read from it. */
  readonly kind?: PluginKind
  readonly state: PluginState
  readonly enabled: boolean
  /** Why the plugin is dormant or disabled, for an operator to act on. */
  readonly reason?: string
  readonly description?: string
  /** The source and strain an inoculated spore came from; absent for a local one. */
  readonly source?: string
  readonly strain?: string
  /** How the core runs it: in a worker of its own (a host) or on the bot's thread. */
  readonly isolation?: 'worker' | 'inline'
  /** For a spore in a host: how often its host was ended for a fault and started again, and why last. */
  readonly restarted?: { readonly count: number; readonly reason: string }
}

export interface PrincipalInfo {
  readonly id: string
  readonly displayName?: string
  readonly identities: readonly ChannelIdentity[]
  readonly roles: readonly string[]
  readonly reviewed: boolean
  readonly locale?: string
  readonly createdAt: Date
}

export interface RoleInfo {
  readonly name: string
  /** `*`, `plugin.*` or `plugin.command`. */
  readonly patterns: readonly string[]
  readonly builtin: boolean
}

/** A rendered argument: its description is already in the requested locale. */
export interface ArgInfo {
  readonly name: string
  readonly description: string
  readonly required: boolean
}

/** A command a principal may invoke, description rendered, args in declaration order. */
export interface CommandInfo {
  readonly plugin: string
  /** The bare command name, as typed after the prefix. */
  readonly name: string
  /** The same bare name, under the field this core named it first. */
  readonly command: string
  /** `plugin.command`, the sort key. */
  readonly qualified: string
  readonly description: string
  readonly args?: readonly ArgInfo[]
  readonly capabilities?: readonly ChannelCapability[]
}

/** Where a command would be asked: applies channel capabilities and context rules too. */
export interface CommandScope {
  readonly channel: string
  readonly kind?: ConversationKind
}

/** Where a context rule lets its command run: one kind of conversation, or a list of them. */
export type ContextRuleWhere = ConversationKind | readonly ConversationKind[]

/** A context rule, read back under both the names spores use and the ones this core used first. */
export interface ContextRule {
  /** The qualified command, `plugin.command`. */
  readonly pattern: string
  /** The kinds of conversation it may run in. */
  readonly where: readonly ConversationKind[]
  /** The same as `pattern`. */
  readonly command: string
  /** The same as `where`. */
  readonly allowed: readonly ConversationKind[]
}

export interface BroadcastResult {
  readonly target: PushTarget
  readonly ok: boolean
  readonly error?: string
}

export type FormSchema =
  | { readonly available: true; readonly schema: JsonSchema; readonly secrets: readonly string[] }
  | { readonly available: false; readonly reason: string }

export type SourceTrust = 'official' | 'third-party'

export interface SourceInfo {
  readonly id: string
  readonly label: string
  readonly url: string
  readonly trust: SourceTrust
  readonly enabled: boolean
  /** Only ever the mask, never the token itself. */
  readonly token?: string
  /**
   * The pinned Ed25519 key (`ed25519:<base64>`) every strain from it must be signed with: given
   * when the source was added, or pinned from the first signed index read from it.
   */
  readonly publisherKey?: string
}

export interface NewSource {
  readonly label: string
  readonly url: string
  readonly token?: string
  readonly enabled?: boolean
  /** Pins the publisher's key (`ed25519:<base64>`) from the start rather than on first sight. */
  readonly publisherKey?: string
}

export type SourcePatch = Partial<NewSource>

export interface InoculationRequest {
  readonly source: string
  readonly spore: string
  /** A strain (released version); the newest when omitted. */
  readonly strain?: string
}

/** One released version of a spore, as a source offers it. */
export interface OfferedStrain {
  readonly strain: string
  /** The septum range its manifest declares. */
  readonly septum: string
  /** When it was published, as an ISO 8601 date-time, where the source says. */
  readonly published?: string
}

/** A spore a source offers. */
export interface OfferedSpore {
  readonly name: string
  readonly kind: PluginKind
  readonly description?: string
  /** Newest first. */
  readonly strains: readonly OfferedStrain[]
}

export interface Inoculation {
  readonly spore: string
  readonly strain: string
  readonly source: string
  readonly path: string
}

export interface PluginsRead {
  listPlugins(): readonly PluginInfo[]
}
export interface HealthRead {
  health(): Promise<readonly RhizaHealth[]>
}
export interface MessagesSend {
  send(target: PushTarget, content: OutgoingContent): Promise<void>
}
export interface PrincipalsRead {
  listPrincipals(): Promise<readonly PrincipalInfo[]>
  getPrincipal(id: string): Promise<PrincipalInfo | null>
  findByIdentity(channel: string, externalId: string): Promise<PrincipalInfo | null>
}
export interface PrincipalsManage {
  markReviewed(id: string): Promise<Outcome>
  setDisplayName(id: string, displayName: string): Promise<Outcome>
}
export interface RolesRead {
  listRoles(): Promise<readonly RoleInfo[]>
  rolesOf(principalId: string): Promise<readonly string[]>
}
export interface RolesAssign {
  assignRole(principalId: string, roleName: string): Promise<Outcome>
  revokeRole(principalId: string, roleName: string): Promise<Outcome>
}
export interface RolesManage {
  createRole(name: string, patterns: readonly string[]): Promise<Outcome>
  setRoleCommands(name: string, patterns: readonly string[]): Promise<Outcome>
  deleteRole(name: string): Promise<Outcome>
}
export interface PluginsToggle {
  enable(name: string): Promise<Outcome>
  disable(name: string): Promise<Outcome>
  /**
   * Re-reads an enabled plugin from disk (manifest, catalogues, a fresh instance of its code) and
   * restarts it with its dependants; a new version that fails to load leaves the running one as it
   * was. Optional: added after 1.0, so a core that predates it has none.
   */
  reload?(name: string): Promise<Outcome>
  /**
   * Looks through the spores folders for plugins that appeared since the bot started: each is
   * recorded disabled, with its reason, and listed at once. A name already taken refuses the
   * newcomer alone. Optional: added after 1.0.
   */
  rescan?(): Promise<OutcomeOf<RescanReport>>
}

/** What a rescan found. */
export interface RescanReport {
  /** Plugins new since the bot started, as they now stand (disabled until enabled, or dormant). */
  readonly found: readonly { readonly name: string; readonly state: PluginState; readonly reason?: string }[]
  /** Folders refused, each with why: a name clash or a reserved name. */
  readonly refused: readonly { readonly name: string; readonly reason: string }[]
}
export interface PluginsConfigure {
  settings(name: string): Promise<OutcomeOf<Record<string, unknown>>>
  setSetting(name: string, key: string, value: unknown): Promise<Outcome>
  /** Removes a stored setting, so a spore can leave a value its schema rejects. */
  unsetSetting(name: string, key: string): Promise<Outcome>
  formSchema(name: string): Promise<FormSchema>
}
export interface MessagesBroadcast {
  broadcast(content: OutgoingContent): Promise<readonly BroadcastResult[]>
}
export interface ConversationsRead {
  listConversations(): Promise<readonly ConversationInfo[]>
}
/**
 * Every write resolves once it applies and rejects with a RefusalError for a business refusal,
 * rather than resolving an Outcome: a spore that only awaits still learns it was refused.
 */
export interface RestrictionsManage {
  listContextRules(): Promise<readonly ContextRule[]>
  /** `where` is one kind of conversation or a list of them; a command listed again is replaced. */
  setContextRule(pattern: string, where: ContextRuleWhere): Promise<void>
  clearContextRule(pattern: string): Promise<void>
  /** The channels an inhibitor is confined to; empty means every channel. */
  inhibitorChannels(inhibitor: string): Promise<readonly string[]>
  /** Replaces the list wholesale; an empty list restores every channel. */
  setInhibitorChannels(inhibitor: string, channels: readonly string[]): Promise<void>
  /** The same as setInhibitorChannels, under the name this core used first. */
  confineInhibitor(inhibitor: string, channels: readonly string[]): Promise<void>
  listBroadcastTargets(): Promise<readonly PushTarget[]>
  addBroadcastTarget(target: PushTarget): Promise<void>
  removeBroadcastTarget(target: PushTarget): Promise<void>
}
/** Rejects with a RefusalError for a business refusal, like restrictions.manage. */
export interface LocaleManage {
  setPrincipalLocale(principalId: string, locale: string): Promise<void>
  setConversationLocale(channel: string, conversationId: string, locale: string): Promise<void>
  availableLocales(): readonly string[]
}
export interface CommandsRead {
  /** The principal as getPrincipal or ctx.principal answers it; its id alone is accepted too. */
  available(
    principal: PrincipalInfo | Principal | string,
    locale: string,
    where?: CommandScope,
  ): Promise<readonly CommandInfo[]>
  /** What someone the bot has not met yet may run (the default role's commands), in `locale`. */
  availableToNewcomers(locale: string, where?: CommandScope): Promise<readonly CommandInfo[]>
  /** The locales some catalogue ships: the languages a list of commands can be asked in. */
  locales(): Promise<readonly string[]>
}
export interface SourcesManage {
  listSources(): Promise<readonly SourceInfo[]>
  addSource(source: NewSource): Promise<SourceInfo>
  updateSource(id: string, patch: SourcePatch): Promise<SourceInfo>
  deleteSource(id: string): Promise<void>
  /** Rejects on every refusal, before anything reaches the tree spores are discovered in. */
  inoculate(request: InoculationRequest): Promise<Inoculation>
  /** What a source offers: its spores, by name, each with its strains newest first. */
  offered(sourceId: string): Promise<readonly OfferedSpore[]>
  /**
   * Installs the newest strain that runs here of a spore installed from a source, from that
   * source; refuses one not installed from a source, and one already at (or past) that strain.
   */
  upgrade(spore: string): Promise<Inoculation>
  /** Puts back the strain the last install over an installed spore replaced; settings are kept. */
  rollBack(spore: string): Promise<Inoculation>
  /**
   * Removes an installed spore: its folder and its install row. Its settings are kept; its stored
   * data (septum 1.1 storage and schedules) is kept or deleted as `keepData` says.
   */
  uninstall(spore: string, options?: UninstallOptions): Promise<void>
}

/** septum 1.1: whether an uninstall keeps what the spore stored. */
export interface UninstallOptions {
  /**
   * True keeps its entries and schedules for a reinstall; false deletes them with its migrations.
   * Unsaid, a spore that stored nothing is uninstalled, and one that did is refused
   * (`uninstall_data_unsaid`) so the operator decides.
   */
  readonly keepData?: boolean
}

/** A one-time code for the admin page, issued to the person whose command is being served. */
export interface WebLoginCode {
  readonly code: string
  /** Milliseconds since the epoch. */
  readonly expiresAt: number
  /** The page's login address, where the code is entered. */
  readonly url: string
}
export interface WebLogin {
  /** Refuses outside a person's command (a timer, an agent) and when the page is switched off. */
  loginCode(): Promise<OutcomeOf<WebLoginCode>>
}
/** An agent key as an operator sees it: never its secret, which is shown once, at creation. */
export interface AgentKeyInfo {
  readonly id: string
  readonly label: string
  /** The person it acts for; it never reaches further than their roles. */
  readonly principalId: string
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
  readonly revokedAt: Date | null
  /** The conversation its confirmations are asked in over chat; null asks through the MCP client. */
  readonly confirmIn: PushTarget | null
}
export interface AgentsManage {
  /** The acting person's keys; every key when no person acts. Revoked keys are listed too. */
  listAgentKeys(): Promise<readonly AgentKeyInfo[]>
  /**
   * A key for the acting person, its secret answered this once. `principalId` is for the operator
   * at the command line; a person always gets a key of their own. Neither an agent nor a spore
   * acting on its own (no person behind the call) can create keys.
   */
  createAgentKey(
    label: string,
    principalId?: string,
  ): Promise<OutcomeOf<{ key: AgentKeyInfo; secret: string }>>
  /** Revokes a key: one's own, or one whose person holds no more than the acting person. */
  revokeAgentKey(id: string): Promise<Outcome>
  /**
   * Asks the key's confirmations in `where` over chat (a yes or no from its person decides), or
   * through the MCP client again with null. A person sets their own keys'; an agent none.
   */
  confirmAgentKeyIn(id: string, where: PushTarget | null): Promise<Outcome>
}

/** Each scope and the interface its grant mounts. */
export interface MyceliumScopeMap {
  'plugins.read': PluginsRead
  'health.read': HealthRead
  'messages.send': MessagesSend
  'principals.read': PrincipalsRead
  'principals.manage': PrincipalsManage
  'roles.read': RolesRead
  'roles.assign': RolesAssign
  'roles.manage': RolesManage
  'plugins.toggle': PluginsToggle
  'plugins.configure': PluginsConfigure
  'messages.broadcast': MessagesBroadcast
  'conversations.read': ConversationsRead
  'restrictions.manage': RestrictionsManage
  'locale.manage': LocaleManage
  'commands.read': CommandsRead
  'sources.manage': SourcesManage
  'web.login': WebLogin
  'agents.manage': AgentsManage
}

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void
  ? I
  : never

/** What `ctx.rhiza('mycelium')` returns for a set of granted scopes. */
export type Mycelium<S extends MyceliumScope = MyceliumScope> = UnionToIntersection<MyceliumScopeMap[S]>

/** The methods each scope mounts, by name: an ungranted scope's are absent. */
export const SCOPE_METHODS = {
  'plugins.read': ['listPlugins'],
  'health.read': ['health'],
  'messages.send': ['send'],
  'principals.read': ['listPrincipals', 'getPrincipal', 'findByIdentity'],
  'principals.manage': ['markReviewed', 'setDisplayName'],
  'roles.read': ['listRoles', 'rolesOf'],
  'roles.assign': ['assignRole', 'revokeRole'],
  'roles.manage': ['createRole', 'setRoleCommands', 'deleteRole'],
  'plugins.toggle': ['enable', 'disable', 'reload', 'rescan'],
  'plugins.configure': ['settings', 'setSetting', 'unsetSetting', 'formSchema'],
  'messages.broadcast': ['broadcast'],
  'conversations.read': ['listConversations'],
  'restrictions.manage': [
    'listContextRules',
    'setContextRule',
    'clearContextRule',
    'inhibitorChannels',
    'setInhibitorChannels',
    'confineInhibitor',
    'listBroadcastTargets',
    'addBroadcastTarget',
    'removeBroadcastTarget',
  ],
  'locale.manage': ['setPrincipalLocale', 'setConversationLocale', 'availableLocales'],
  'commands.read': ['available', 'availableToNewcomers', 'locales'],
  'sources.manage': [
    'listSources',
    'addSource',
    'updateSource',
    'deleteSource',
    'inoculate',
    'offered',
    'upgrade',
    'rollBack',
    'uninstall',
  ],
  'web.login': ['loginCode'],
  'agents.manage': ['listAgentKeys', 'createAgentKey', 'revokeAgentKey', 'confirmAgentKeyIn'],
} as const satisfies { readonly [S in MyceliumScope]: readonly (keyof MyceliumScopeMap[S])[] }
