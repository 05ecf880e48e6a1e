import type {
  ContextRule,
  ContextRuleWhere,
  ConversationKind,
  Outcome,
  OutcomeOf,
  PushTarget,
  RestrictionsManage,
} from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { lockoutRefusal } from './lockout.ts'
import { DONE, type Refusal, refused, settling } from './outcome.ts'

const KINDS: readonly ConversationKind[] = ['dm', 'group']

/** restrictions.manage as the core's own surfaces call it: every business refusal is an Outcome. */
export interface RestrictionOutcomes {
  listContextRules(): Promise<readonly ContextRule[]>
  setContextRule(command: string, allowed: readonly ConversationKind[]): Promise<Outcome>
  clearContextRule(command: string): Promise<Outcome>
  inhibitorChannels(inhibitor: string): Promise<OutcomeOf<readonly string[]>>
  confineInhibitor(inhibitor: string, channels: readonly string[]): Promise<Outcome>
  listBroadcastTargets(): Promise<readonly PushTarget[]>
  addBroadcastTarget(target: PushTarget): Promise<Outcome>
  removeBroadcastTarget(target: PushTarget): Promise<Outcome>
}

/**
 * restrictions.manage as a spore holds it: the same checks and writes, but a refusal rejects with
 * a RefusalError, and it answers the names spores use beside the ones this core used first.
 */
export function restrictionsManage(runtime: CoreRuntime): RestrictionsManage {
  const outcomes = restrictionOutcomes(runtime)
  const settle = settling(runtime.translator)
  const confine = async (inhibitor: string, channels: readonly string[]) =>
    settle.done(await outcomes.confineInhibitor(inhibitor, channels))
  return {
    listContextRules: () => outcomes.listContextRules(),
    async setContextRule(pattern, where) {
      return settle.done(await outcomes.setContextRule(pattern, kindsOf(where)))
    },
    async clearContextRule(pattern) {
      return settle.done(await outcomes.clearContextRule(pattern))
    },
    async inhibitorChannels(inhibitor) {
      return settle.value(await outcomes.inhibitorChannels(inhibitor))
    },
    setInhibitorChannels: confine,
    confineInhibitor: confine,
    listBroadcastTargets: () => outcomes.listBroadcastTargets(),
    async addBroadcastTarget(target) {
      return settle.done(await outcomes.addBroadcastTarget(target))
    },
    async removeBroadcastTarget(target) {
      return settle.done(await outcomes.removeBroadcastTarget(target))
    },
  }
}

/** A single kind is the one-kind list; anything else is checked as a list, so a stray value refuses. */
function kindsOf(where: ContextRuleWhere): readonly ConversationKind[] {
  return Array.isArray(where) ? where : [where as ConversationKind]
}

/**
 * Every write goes through the runtime's restriction book, which the message path reads, so a
 * change applies to the very next message with no restart.
 */
export function restrictionOutcomes(runtime: CoreRuntime): RestrictionOutcomes {
  const { restrictions, routes, germination } = runtime
  const installed = (name: string, kind: 'hypha' | 'inhibitor') => germination.byName.get(name)?.kind === kind
  const inhibitorRefusal = (inhibitor: string): Refusal | undefined =>
    installed(inhibitor, 'inhibitor') ? undefined : refused('inhibitor_unknown', { inhibitor })
  const channelRefusal = (channel: string): Refusal | undefined =>
    installed(channel, 'hypha') ? undefined : refused('channel_unknown', { channel })

  return audited(runtime, 'restrictions.manage', {
    async listContextRules() {
      return restrictions.contextRules()
    },
    async setContextRule(command, allowed) {
      if (!routes.all.some((route) => route.qualified === command))
        return refused('command_unknown', { command })
      if (allowed.length === 0) return refused('kinds_empty', { command })
      const stray = allowed.find((kind) => !KINDS.includes(kind))
      if (stray !== undefined) return refused('kind_invalid', { kind: String(stray) })
      const locked = lockoutRefusal(runtime, { kind: 'context-rule', command, allowed })
      if (locked) return locked
      restrictions.setContextRule(command, allowed)
      return DONE
    },
    async clearContextRule(command) {
      // No route check: a rule may outlive the enzyme it was written for, and still be cleared.
      return restrictions.clearContextRule(command) ? DONE : refused('context_rule_absent', { command })
    },
    async inhibitorChannels(inhibitor) {
      return inhibitorRefusal(inhibitor) ?? { ok: true, value: restrictions.confinedTo(inhibitor) }
    },
    async confineInhibitor(inhibitor, channels) {
      // A misspelt channel would leave the inhibitor judging nothing: refuse it rather than open a hole.
      const refusal =
        inhibitorRefusal(inhibitor) ??
        firstOf(channels.map(channelRefusal)) ??
        lockoutRefusal(runtime, { kind: 'confine', inhibitor, channels })
      if (refusal) return refusal
      restrictions.confine(inhibitor, channels)
      return DONE
    },
    async listBroadcastTargets() {
      return restrictions.targets()
    },
    async addBroadcastTarget(target) {
      const refusal = channelRefusal(target.channel) ?? conversationRefusal(target)
      if (refusal) return refusal
      // Adding a target already listed changes nothing, and is not an error.
      restrictions.addTarget(target)
      return DONE
    },
    async removeBroadcastTarget(target) {
      if (restrictions.removeTarget(target)) return DONE
      return refused('broadcast_target_absent', {
        channel: target.channel,
        conversation: target.conversationId,
      })
    },
  })
}

function conversationRefusal(target: PushTarget): Refusal | undefined {
  return target.conversationId.trim() === ''
    ? refused('conversation_empty', { channel: target.channel })
    : undefined
}

function firstOf<T>(values: readonly (T | undefined)[]): T | undefined {
  return values.find((value) => value !== undefined)
}
