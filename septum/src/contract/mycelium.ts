import type { JsonSchema } from './config.ts'
import type {
  ChannelIdentity,
  ConversationInfo,
  OutgoingContent,
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

export interface ContextRule {
  /** The qualified command, `plugin.command`. */
  readonly command: string
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
}

export interface NewSource {
  readonly label: string
  readonly url: string
  readonly token?: string
  readonly enabled?: boolean
}

export type SourcePatch = Partial<NewSource>

export interface InoculationRequest {
  readonly source: string
  readonly spore: string
  /** A strain (released version); the newest when omitted. */
  readonly strain?: string
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
export interface RestrictionsManage {
  listContextRules(): Promise<readonly ContextRule[]>
  setContextRule(command: string, allowed: readonly ConversationKind[]): Promise<Outcome>
  clearContextRule(command: string): Promise<Outcome>
  /** The channels an inhibitor is confined to; empty means every channel. */
  inhibitorChannels(inhibitor: string): Promise<OutcomeOf<readonly string[]>>
  confineInhibitor(inhibitor: string, channels: readonly string[]): Promise<Outcome>
  listBroadcastTargets(): Promise<readonly PushTarget[]>
  addBroadcastTarget(target: PushTarget): Promise<Outcome>
  removeBroadcastTarget(target: PushTarget): Promise<Outcome>
}
export interface LocaleManage {
  setPrincipalLocale(principalId: string, locale: string): Promise<Outcome>
  setConversationLocale(channel: string, conversationId: string, locale: string): Promise<Outcome>
  availableLocales(): readonly string[]
}
export interface CommandsRead {
  available(principalId: string, locale: string, where?: CommandScope): Promise<readonly CommandInfo[]>
}
export interface SourcesManage {
  listSources(): Promise<readonly SourceInfo[]>
  addSource(source: NewSource): Promise<SourceInfo>
  updateSource(id: string, patch: SourcePatch): Promise<SourceInfo>
  deleteSource(id: string): Promise<void>
  /** Rejects on every refusal, before anything reaches the tree spores are discovered in. */
  inoculate(request: InoculationRequest): Promise<Inoculation>
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
  'plugins.toggle': ['enable', 'disable'],
  'plugins.configure': ['settings', 'setSetting', 'unsetSetting', 'formSchema'],
  'messages.broadcast': ['broadcast'],
  'conversations.read': ['listConversations'],
  'restrictions.manage': [
    'listContextRules',
    'setContextRule',
    'clearContextRule',
    'inhibitorChannels',
    'confineInhibitor',
    'listBroadcastTargets',
    'addBroadcastTarget',
    'removeBroadcastTarget',
  ],
  'locale.manage': ['setPrincipalLocale', 'setConversationLocale', 'availableLocales'],
  'commands.read': ['available'],
  'sources.manage': ['listSources', 'addSource', 'updateSource', 'deleteSource', 'inoculate'],
} as const satisfies { readonly [S in MyceliumScope]: readonly (keyof MyceliumScopeMap[S])[] }
