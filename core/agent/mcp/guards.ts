import { MYCELIUM_SCOPES, type MyceliumScope } from '@mycelo/septum'
import { uncoveredPatterns } from '../../identity/patterns.ts'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import type { Grant, Grants } from '../access.ts'

/**
 * The chat commands that guard each scope: a person reaches a scope's reads or writes in chat only
 * through these, so an agent acting for them gets exactly as far. A module with no read commands
 * has nothing an agent could read alone.
 */
export const SCOPE_GUARDS: { readonly [S in MyceliumScope]: { read: string[]; write: string[] } } = {
  'plugins.read': { read: ['admin.plugins'], write: [] },
  // A sign-in code for the page is for a person asking in chat; an agent is never granted it.
  'web.login': { read: [], write: [] },
  'health.read': { read: ['admin.health'], write: [] },
  'plugins.toggle': { read: [], write: ['admin.enable', 'admin.disable'] },
  'plugins.configure': { read: ['admin.settings', 'admin.form'], write: ['admin.set', 'admin.unset'] },
  'principals.read': { read: ['admin.people'], write: [] },
  'principals.manage': { read: [], write: ['admin.review', 'admin.rename'] },
  'roles.read': { read: ['admin.roles'], write: [] },
  'roles.assign': { read: [], write: ['admin.grant', 'admin.revoke'] },
  'roles.manage': { read: [], write: ['admin.role-create', 'admin.role-set', 'admin.role-delete'] },
  // Sending to one conversation is a narrower broadcast: no chat command does less.
  'messages.send': { read: [], write: ['admin.broadcast'] },
  'messages.broadcast': { read: [], write: ['admin.broadcast'] },
  'conversations.read': { read: ['admin.conversations'], write: [] },
  'restrictions.manage': {
    read: ['admin.rules', 'admin.targets'],
    write: ['admin.rule', 'admin.confine', 'admin.target-add', 'admin.target-remove'],
  },
  'locale.manage': { read: [], write: ['admin.lang', 'admin.lang-group'] },
  // Any person's commands, in any locale: what an operator reading people may see.
  'commands.read': { read: ['admin.people'], write: [] },
  'sources.manage': {
    read: ['admin.sources', 'admin.offered'],
    write: [
      'admin.source-add',
      'admin.source-set',
      'admin.source-enable',
      'admin.source-disable',
      'admin.source-delete',
      'admin.install',
      'admin.upgrade',
      'admin.rollback',
      'admin.uninstall',
    ],
  },
  'agents.manage': { read: ['admin.agent-keys'], write: ['admin.agent-key'] },
}

/**
 * What `principalId` may let an agent do right now, for every module there is: a scope by its
 * guarding commands, a spore's own operations only with all of that spore's commands. Read fresh
 * at each call, so a role taken away applies to the very next one; a person gone holds nothing.
 */
export function grantsOf(runtime: CoreRuntime, principalId: string): Grants {
  const held = runtime.directory.load(principalId)?.patterns ?? new Set<string>()
  const covers = (patterns: readonly string[]) => uncoveredPatterns(held, patterns).length === 0
  const grants: Record<string, Grant> = {}
  for (const scope of MYCELIUM_SCOPES) {
    const { read, write } = SCOPE_GUARDS[scope]
    // A scope no chat command guards is one no agent is ever granted.
    if (read.length + write.length === 0) grants[scope] = 'none'
    else if (covers([...read, ...write])) grants[scope] = 'write'
    else if (read.length > 0 && covers(read)) grants[scope] = 'read'
    else grants[scope] = 'none'
  }
  for (const spore of runtime.germination.spores) {
    grants[spore.name] = covers([`${spore.name}.*`]) ? 'write' : 'none'
  }
  return grants
}

/** Every module refused: what a key answers once it is revoked or its person is gone. */
export function nothingGranted(grants: Grants): Grants {
  return Object.fromEntries(Object.keys(grants).map((module) => [module, 'none' as const]))
}

/** Whether the grants let an agent do anything at all: a key that cannot is refused at the door. */
export function grantsAnything(grants: Grants): boolean {
  return Object.values(grants).some((grant) => grant !== 'none')
}
