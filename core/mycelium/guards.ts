// The one table of which chat command guards each mycelium method. The API guards its routes with
// it, the agent's grants are worked out from it, and the page is told from it what a person may do,
// so a surface cannot let a person do through it what chat would not.
import { type MyceliumScope, SCOPE_METHODS } from '@mycelo/septum'

/** The methods septum lists for a scope. */
export type MethodOf<S extends MyceliumScope> = (typeof SCOPE_METHODS)[S][number]

/**
 * A method chat reaches with one command, or with several where each is one use of it (enabling a
 * source is an update of it, behind its own command); null where any signed-in person may call it.
 */
export type MethodGuard =
  | string
  | null
  | { readonly command: string; readonly uses: Readonly<Record<string, string>> }

export const METHOD_GUARDS = {
  'plugins.read': { listPlugins: 'admin.plugins' },
  'health.read': { health: 'admin.health' },
  // Sending to one conversation is a narrower broadcast: no chat command does less.
  'messages.send': { send: 'admin.broadcast' },
  'principals.read': {
    listPrincipals: 'admin.people',
    getPrincipal: 'admin.people',
    findByIdentity: 'admin.people',
  },
  'principals.manage': { markReviewed: 'admin.review', setDisplayName: 'admin.rename' },
  'roles.read': { listRoles: 'admin.roles', rolesOf: 'admin.roles' },
  'roles.assign': { assignRole: 'admin.grant', revokeRole: 'admin.revoke' },
  'roles.manage': {
    createRole: 'admin.role-create',
    setRoleCommands: 'admin.role-set',
    deleteRole: 'admin.role-delete',
  },
  'plugins.toggle': {
    enable: 'admin.enable',
    disable: 'admin.disable',
    reload: 'admin.reload',
    rescan: 'admin.rescan',
  },
  'plugins.configure': {
    settings: 'admin.settings',
    setSetting: 'admin.set',
    unsetSetting: 'admin.unset',
    formSchema: 'admin.form',
  },
  'messages.broadcast': { broadcast: 'admin.broadcast' },
  'conversations.read': { listConversations: 'admin.conversations' },
  'restrictions.manage': {
    listContextRules: 'admin.rules',
    setContextRule: 'admin.rule',
    clearContextRule: 'admin.rule',
    inhibitorChannels: 'admin.rules',
    setInhibitorChannels: 'admin.confine',
    confineInhibitor: 'admin.confine',
    listBroadcastTargets: 'admin.targets',
    addBroadcastTarget: 'admin.target-add',
    removeBroadcastTarget: 'admin.target-remove',
  },
  'locale.manage': {
    setPrincipalLocale: 'admin.lang',
    setConversationLocale: 'admin.lang-group',
    // Which languages exist is no secret: the page's picker reads it before anything else.
    availableLocales: null,
  },
  // Any person's commands, in any locale: what an operator reading people may see.
  'commands.read': {
    available: 'admin.people',
    // What a newcomer may run, and in which languages, is no one's secret: the bot shows it to all.
    availableToNewcomers: null,
    locales: null,
  },
  'sources.manage': {
    listSources: 'admin.sources',
    addSource: 'admin.source-add',
    updateSource: {
      command: 'admin.source-set',
      uses: { enable: 'admin.source-enable', disable: 'admin.source-disable' },
    },
    deleteSource: 'admin.source-delete',
    inoculate: 'admin.install',
    offered: 'admin.offered',
    upgrade: 'admin.upgrade',
    rollBack: 'admin.rollback',
    uninstall: 'admin.uninstall',
  },
  'web.login': { loginCode: 'admin.web' },
  'agents.manage': {
    listAgentKeys: 'admin.agent-keys',
    createAgentKey: 'admin.agent-key',
    revokeAgentKey: 'admin.agent-key',
    confirmAgentKeyIn: 'admin.agent-key',
  },
} as const satisfies { readonly [S in MyceliumScope]: { readonly [M in MethodOf<S>]: MethodGuard } }

/**
 * What the core offers operators beside septum's scopes, guarded the same way. None has a chat
 * command: `admin.logs` and `admin.audit` are granted as patterns, and `core.export` is covered by
 * the owner's `*` only (no spore may be named `core`) unless an owner grants it on purpose.
 */
export const OPERATOR_GUARDS = {
  logs: 'admin.logs',
  auditLog: 'admin.audit',
  exportConfiguration: 'core.export',
  // The commands every spore declares, previewed against a role's patterns while it is edited.
  declaredCommands: 'admin.roles',
} as const

export type OperatorAction = keyof typeof OPERATOR_GUARDS

/** A guard read from the table: the command, and what it guards, for a surface to say. */
export interface Guard {
  /** Absent where the table says anyone signed in may call the method. */
  readonly command?: string
  /** `plugins.toggle.enable`, `sources.manage.updateSource:enable` or `operator.logs`. */
  readonly guards: string
}

/** The command guarding a method, or one use of it (`updateSource`, `'enable'`). */
export function guardOf<S extends MyceliumScope>(scope: S, method: MethodOf<S>, use?: string): Guard {
  const entry = (METHOD_GUARDS[scope] as Readonly<Record<string, MethodGuard>>)[method]
  if (entry === undefined) throw new RangeError(`${scope} has no method ${method} in the guard table`)
  const name = `${scope}.${method}`
  if (entry === null) return { guards: name }
  if (use === undefined) return { command: typeof entry === 'string' ? entry : entry.command, guards: name }
  const command = typeof entry === 'string' ? undefined : entry.uses[use]
  if (command === undefined) throw new RangeError(`${name} has no use ${use} in the guard table`)
  return { command, guards: `${name}:${use}` }
}

export function operatorGuard(action: OperatorAction): Guard & { readonly command: string } {
  return { command: OPERATOR_GUARDS[action], guards: `operator.${action}` }
}

/** Every command that reaches a method, the method's own first, then each use's. */
export function commandsOf<S extends MyceliumScope>(scope: S, method: MethodOf<S>): string[] {
  const entry = (METHOD_GUARDS[scope] as Readonly<Record<string, MethodGuard>>)[method]
  if (entry === undefined || entry === null) return []
  return typeof entry === 'string' ? [entry] : [entry.command, ...Object.values(entry.uses)]
}

/** Each scope's methods, as septum lists them, with the commands that reach each. */
export function scopeGuards(
  scope: MyceliumScope,
): { readonly method: string; readonly commands: string[] }[] {
  return SCOPE_METHODS[scope].map((method) => ({
    method,
    commands: commandsOf(scope, method as MethodOf<typeof scope>),
  }))
}

/** Every command the table names, sorted: what the page asks which of a person may use. */
export const GUARDED_COMMANDS: readonly string[] = [
  ...new Set([
    ...(Object.keys(METHOD_GUARDS) as MyceliumScope[]).flatMap((scope) =>
      scopeGuards(scope).flatMap((entry) => entry.commands),
    ),
    ...Object.values(OPERATOR_GUARDS),
  ]),
].sort()
