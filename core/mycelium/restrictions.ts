import type { ConversationKind, PushTarget, RestrictionsManage } from '@mycelo/septum'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { lockoutRefusal } from './lockout.ts'
import { DONE, type Refusal, refused } from './outcome.ts'

const KINDS: readonly ConversationKind[] = ['dm', 'group']

/**
 * restrictions.manage: every write goes through the runtime's restriction book, which the message
 * path reads, so a change applies to the very next message with no restart.
 */
export function restrictionsManage(runtime: CoreRuntime): RestrictionsManage {
  const { restrictions, routes, germination } = runtime
  const installed = (name: string, kind: 'hypha' | 'inhibitor') => germination.byName.get(name)?.kind === kind
  const inhibitorRefusal = (inhibitor: string): Refusal | undefined =>
    installed(inhibitor, 'inhibitor') ? undefined : refused('inhibitor_unknown', { inhibitor })
  const channelRefusal = (channel: string): Refusal | undefined =>
    installed(channel, 'hypha') ? undefined : refused('channel_unknown', { channel })

  return {
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
  }
}

function conversationRefusal(target: PushTarget): Refusal | undefined {
  return target.conversationId.trim() === ''
    ? refused('conversation_empty', { channel: target.channel })
    : undefined
}

function firstOf<T>(values: readonly (T | undefined)[]): T | undefined {
  return values.find((value) => value !== undefined)
}
