import type { ConversationKind } from '@mycelo/septum'
import type { PrincipalSnapshot } from '../identity/directory.ts'
import { patternsAllow } from '../identity/patterns.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { currentActor } from './actor.ts'
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

/** One way in: a channel the principal is known on, and a kind of conversation it delivers. */
interface Path {
  readonly channel: string
  readonly kind: ConversationKind
}

/**
 * Refuses a change that would leave the principal making it no live way back to the commands of
 * the spore they are commanding through — the spore that holds the scope to undo it. The operator
 * at the command line and a spore acting on its own are the recovery path, and never refused here.
 *
 * The core cannot tell which of that spore's commands undoes what, so: a disable or a settings
 * write is refused when none of its commands stays reachable; a context rule when it takes away
 * the very command it names, since that may be the one that changes rules back.
 */
export function lockoutRefusal(runtime: CoreRuntime, change: Change): Refusal | undefined {
  const actor = currentActor()
  if (actor?.kind !== 'principal') return undefined
  const person = runtime.directory.load(actor.principalId)
  if (person === undefined) return undefined
  const world = { runtime, person, spore: actor.spore }
  const before = reachable({ ...world, change: undefined })
  const after = reachable({ ...world, change })
  if (change.kind === 'context-rule') {
    if (!before.has(change.command) || after.has(change.command)) return undefined
    return refused('lockout_context_rule', { command: change.command, kinds: kindsWord(world) })
  }
  if (before.size === 0 || after.size > 0) return undefined
  const action = change.kind === 'disable' ? 'disable' : 'configure'
  const params = { plugin: change.plugin, spore: actor.spore, action }
  if (!isUp(runtime, actor.spore, change)) {
    return refused('lockout_spore', { ...params, same: actor.spore === change.plugin ? 'yes' : 'no' })
  }
  return refused('lockout_channel', params)
}

interface World {
  readonly runtime: CoreRuntime
  readonly person: PrincipalSnapshot
  /** The enzyme the principal commands through. */
  readonly spore: string
  readonly change: Change | undefined
}

/** The qualified commands of the spore the principal can run from at least one path. */
function reachable(world: World): Set<string> {
  const { runtime, person, spore, change } = world
  const found = new Set<string>()
  if (!isUp(runtime, spore, change)) return found
  const paths = pathsOf(world)
  for (const route of runtime.routes.all) {
    if (route.plugin !== spore || !patternsAllow(person.patterns, route)) continue
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
