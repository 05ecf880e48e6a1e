import type { ConversationKind, MyceliumScope } from '@mycelo/septum'
import type { PrincipalSnapshot } from '../identity/directory.ts'
import { patternsAllow } from '../identity/patterns.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { actingPrincipal, currentActor } from './actor.ts'
import { grantedScopes } from './mount.ts'
import { type Refusal, refused } from './outcome.ts'

/** A change the lockout rule weighs, as the mycelium function about to make it describes it. */
export type Change =
  | { readonly kind: 'disable'; readonly plugin: string }
  /** `valid`: whether the plugin's settings, once written, still pass its schema. */
  | { readonly kind: 'configure'; readonly plugin: string; readonly valid: boolean }
  | {
      readonly kind: 'context-rule'
      readonly command: string
      readonly allowed: readonly ConversationKind[]
    }
  /** `channels`: where the inhibitor will judge; empty means every channel. */
  | { readonly kind: 'confine'; readonly inhibitor: string; readonly channels: readonly string[] }

/** One way in: a channel the principal is known on, and a kind of conversation it delivers. */
interface Path {
  readonly channel: string
  readonly kind: ConversationKind
}

/** The scope a spore needs to undo each kind of change. */
const UNDOING_SCOPE = {
  disable: 'plugins.toggle',
  configure: 'plugins.configure',
  'context-rule': 'restrictions.manage',
  confine: 'restrictions.manage',
} as const satisfies Record<Change['kind'], MyceliumScope>

/**
 * Refuses a change that would remove the last live way the principal making it has to undo it: an
 * enzyme holding the scope that undoes it (the one they command through, or a sibling granted the
 * same scope) with a command they can still run from a channel they are known on. The operator at
 * the command line and a spore acting on its own are the recovery path, and never refused here.
 *
 * The core cannot tell which command of an enzyme undoes what, so any command it can reach makes
 * it a way back — except for a context rule on one of its own commands: that command may be the
 * very one that changes rules, so the enzyme only counts while that command stays reachable.
 */
export function lockoutRefusal(runtime: CoreRuntime, change: Change): Refusal | undefined {
  const actor = currentActor()
  const principalId = actingPrincipal(actor)
  if (actor === undefined || principalId === undefined) return undefined
  // The page and an agent reach the bot through its HTTP server, not through a spore, a channel or
  // a context rule: no spore change takes that way back from them, so nothing here is a lockout.
  if (actor.kind === 'agent' || (actor.kind === 'principal' && actor.channel === 'web')) return undefined
  const person = runtime.directory.load(principalId)
  if (person === undefined) return undefined
  const world = { runtime, person, scope: UNDOING_SCOPE[change.kind] }
  const ruled = change.kind === 'context-rule' ? change.command : undefined
  const before = waysBack({ ...world, change: undefined }, ruled)
  if (before.length === 0) return undefined
  if (waysBack({ ...world, change }, ruled).length > 0) return undefined
  // An agent serves no command: the way back it would cut is the person's first enzyme.
  const through = actor.kind === 'principal' ? actor.spore : before[0]!
  if (change.kind === 'context-rule') {
    return refused('lockout_context_rule', { command: change.command, kinds: kindsWord(world) })
  }
  if (change.kind === 'confine') {
    return refused('lockout_confine', { inhibitor: change.inhibitor, spore: through })
  }
  const action = change.kind === 'disable' ? 'disable' : 'configure'
  const params = { plugin: change.plugin, spore: through, action }
  if (!isUp(runtime, through, change)) {
    return refused('lockout_spore', { ...params, same: through === change.plugin ? 'yes' : 'no' })
  }
  return refused('lockout_channel', params)
}

interface World {
  readonly runtime: CoreRuntime
  readonly person: PrincipalSnapshot
  /** The scope that undoes the change. */
  readonly scope: MyceliumScope
  /** The change applied, or undefined for the world as it stands. */
  readonly change: Change | undefined
}

/**
 * The enzymes holding the undoing scope that the principal can still reach, after `change`; one
 * declaring `ruled`, the command a context rule is about, counts only while that command is reachable.
 */
function waysBack(world: World, ruled: string | undefined): string[] {
  const { runtime, scope } = world
  const reach = reachable(world)
  return runtime.germination.spores
    .filter((spore) => spore.kind === 'enzyme' && grantedScopes(spore.manifest).includes(scope))
    .filter((spore) => {
      const mine = runtime.routes.all.filter((route) => route.plugin === spore.name)
      if (ruled !== undefined && mine.some((route) => route.qualified === ruled)) return reach.has(ruled)
      return mine.some((route) => reach.has(route.qualified))
    })
    .map((spore) => spore.name)
}

/** Every qualified command the principal can run from at least one path, after `change`. */
function reachable(world: World): Set<string> {
  const { runtime, person, change } = world
  const found = new Set<string>()
  const paths = pathsOf(world)
  for (const route of runtime.routes.all) {
    if (!isUp(runtime, route.plugin, change) || !patternsAllow(person.patterns, route)) continue
    const allowed =
      change?.kind === 'context-rule' && change.command === route.qualified
        ? change.allowed
        : runtime.restrictions.allowedKinds(route.qualified)
    const needed = route.command.capabilities ?? []
    const usable = paths.some(
      (path) =>
        (allowed === undefined || allowed.includes(path.kind)) &&
        needed.every((capability) => runtime.hyphae.capabilitiesOf(path.channel).has(capability)),
    )
    if (usable) found.add(route.qualified)
  }
  return found
}

/**
 * Where the principal can reach the bot: each channel they are known on that is up, in direct
 * messages, and in groups where the channel can tell a group's members or has delivered a group.
 */
function pathsOf({ runtime, person, change }: World): Path[] {
  const conversations = runtime.conversations.list()
  const channels = new Set(person.principal.identities.map((identity) => identity.channel))
  return [...channels]
    .filter((channel) => runtime.germination.byName.get(channel)?.kind === 'hypha')
    .filter((channel) => isUp(runtime, channel, change) && !loses(channel, change))
    .filter((channel) => !walled(runtime, channel, change))
    .flatMap((channel) => {
      const groups =
        runtime.hyphae.capabilitiesOf(channel).has('group_membership') ||
        conversations.some((seen) => seen.channel === channel && seen.kind === 'group')
      return groups
        ? [
            { channel, kind: 'dm' as const },
            { channel, kind: 'group' as const },
          ]
        : [{ channel, kind: 'dm' as const }]
    })
}

/** A channel's settings decide who one is on it and whether it connects at all: any change may lose it. */
function loses(channel: string, change: Change | undefined): boolean {
  return change?.kind === 'configure' && change.plugin === channel
}

/**
 * Whether an enforcing inhibitor that is not running judges the channel: it then refuses every
 * message there, so the channel is no way in whatever else holds.
 */
function walled(runtime: CoreRuntime, channel: string, change: Change | undefined): boolean {
  return runtime.germination.spores.some((spore) => {
    if (spore.kind !== 'inhibitor' || !spore.enforcing || spore.state !== 'dormant') return false
    const confined =
      change?.kind === 'confine' && change.inhibitor === spore.name
        ? change.channels
        : runtime.restrictions.confinedTo(spore.name)
    return confined.length === 0 || confined.includes(channel)
  })
}

/**
 * Whether a spore runs after the change: live now, its row on, its settings still valid, and every
 * rhiza it cannot live without up too.
 */
function isUp(
  runtime: CoreRuntime,
  name: string,
  change: Change | undefined,
  seen = new Set<string>(),
): boolean {
  const spore = runtime.germination.byName.get(name)
  if (spore === undefined || spore.state !== 'live') return false
  // Germination refuses a requires cycle; this only spares a rhiza two spores share a second look.
  if (seen.has(name)) return true
  if (change?.kind === 'disable' && change.plugin === name) return false
  if (change?.kind === 'configure' && change.plugin === name && !change.valid) return false
  if (runtime.plugins.installOf(name)?.enabled === false) return false
  seen.add(name)
  return spore.mandatory.every((rhiza) => isUp(runtime, rhiza, change, seen))
}

/** The kinds of conversation the principal reaches the bot in, as one word for a select. */
function kindsWord(world: Omit<World, 'change'>): 'dm' | 'group' | 'both' {
  const kinds = new Set(pathsOf({ ...world, change: undefined }).map((path) => path.kind))
  if (kinds.has('dm') && kinds.has('group')) return 'both'
  return kinds.has('group') ? 'group' : 'dm'
}
