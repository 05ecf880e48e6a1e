import type { ConversationKind, Invocation, PushTarget } from '@mycelo/septum'
import { arg, listing, say, sibling, usage, words, yesNo } from './answers.ts'
import { type AdminContext, type Handlers, myceliumOf } from './mycelium.ts'
import { answerSettled } from './settled.ts'

/** What `rule` accepts after the command: where it may run, or `clear` to lift the rule. */
const PLACES: Readonly<Record<string, readonly ConversationKind[]>> = {
  dm: ['dm'],
  group: ['group'],
  both: ['dm', 'group'],
}

/** How a rule's allowed kinds read in a sentence: one word an ICU select can branch on. */
function place(allowed: readonly ConversationKind[]): string {
  if (allowed.includes('dm') && allowed.includes('group')) return 'both'
  return allowed[0] ?? 'none'
}

function target(invocation: Invocation): PushTarget | undefined {
  const channel = arg(invocation, 'channel')
  const conversationId = arg(invocation, 'conversation')
  return channel === undefined || conversationId === undefined ? undefined : { channel, conversationId }
}

function watched(inhibitor: string, channels: readonly string[], ctx: AdminContext): string {
  return ctx.t('confine.watches', { inhibitor, channels: channels.join(', '), count: channels.length })
}

/** Conversations, context rules, inhibitor channels, broadcast targets and the broadcast itself. */
export const restrictionHandlers: Handlers = {
  async conversations(_invocation, ctx) {
    const conversations = await myceliumOf(ctx).listConversations()
    const lines = conversations.map((conversation) =>
      ctx.t('conversations.line', {
        channel: conversation.channel,
        conversation: conversation.conversationId,
        kind: conversation.kind,
        label: conversation.label ?? '',
        labelled: yesNo(conversation.label !== undefined && conversation.label !== ''),
        locale: conversation.locale ?? 'none',
        lastSeen: conversation.lastSeen,
      }),
    )
    const title = ctx.t('conversations.title', { count: conversations.length })
    await say(ctx, listing(title, lines, ctx.t('conversations.empty')))
  },

  async rules(_invocation, ctx) {
    const rules = await myceliumOf(ctx).listContextRules()
    const lines = rules.map((rule) =>
      ctx.t('rules.line', { command: rule.pattern, place: place(rule.where) }),
    )
    await say(ctx, listing(ctx.t('rules.title'), lines, ctx.t('rules.empty')))
  },

  async rule(invocation, ctx) {
    const command = arg(invocation, 'command')
    const where = arg(invocation, 'where')?.toLowerCase()
    if (command === undefined || where === undefined) return usage(invocation, ctx)
    if (where === 'clear') {
      const cleared = myceliumOf(ctx).clearContextRule(command)
      return answerSettled(ctx, cleared, () => ctx.t('rule.cleared', { command }))
    }
    const allowed = PLACES[where]
    if (allowed === undefined) return usage(invocation, ctx)
    const set = myceliumOf(ctx).setContextRule(command, allowed)
    await answerSettled(ctx, set, () => ctx.t('rule.done', { command, place: where }))
  },

  async confine(invocation, ctx) {
    const inhibitor = arg(invocation, 'inhibitor')
    if (inhibitor === undefined) return usage(invocation, ctx)
    const channels = words(invocation.args.channels)
    const mycelium = myceliumOf(ctx)
    if (channels.length === 0) {
      // Without channels, the answer is where the inhibitor watches now.
      const current = mycelium.inhibitorChannels(inhibitor)
      return answerSettled(ctx, current, (watches) => watched(inhibitor, watches, ctx))
    }
    const confined = channels.length === 1 && channels[0]?.toLowerCase() === 'all' ? [] : channels
    const confining = mycelium.setInhibitorChannels(inhibitor, confined)
    await answerSettled(ctx, confining, () => watched(inhibitor, confined, ctx))
  },

  async targets(invocation, ctx) {
    const targets = await myceliumOf(ctx).listBroadcastTargets()
    const lines = targets.map((target) =>
      ctx.t('targets.line', { channel: target.channel, conversation: target.conversationId }),
    )
    const empty = ctx.t('targets.empty', { command: sibling(invocation, 'target-add') })
    await say(ctx, listing(ctx.t('targets.title'), lines, empty))
  },

  async targetAdd(invocation, ctx) {
    const wanted = target(invocation)
    if (wanted === undefined) return usage(invocation, ctx)
    const added = myceliumOf(ctx).addBroadcastTarget(wanted)
    await answerSettled(ctx, added, () =>
      ctx.t('targetAdd.done', { channel: wanted.channel, conversation: wanted.conversationId }),
    )
  },

  async targetRemove(invocation, ctx) {
    const wanted = target(invocation)
    if (wanted === undefined) return usage(invocation, ctx)
    const removed = myceliumOf(ctx).removeBroadcastTarget(wanted)
    await answerSettled(ctx, removed, () =>
      ctx.t('targetRemove.done', { channel: wanted.channel, conversation: wanted.conversationId }),
    )
  },

  async broadcast(invocation, ctx) {
    const text = arg(invocation, 'text')
    if (text === undefined) return usage(invocation, ctx)
    const results = await myceliumOf(ctx).broadcast({ text })
    const lines = results.map(({ target, ok, error }) =>
      ctx.t(ok ? 'broadcast.sent' : 'broadcast.failed', {
        channel: target.channel,
        conversation: target.conversationId,
        error: error ?? '',
      }),
    )
    const sent = results.filter((result) => result.ok).length
    const title = ctx.t('broadcast.title', { sent, count: results.length })
    const empty = ctx.t('broadcast.none', { command: sibling(invocation, 'target-add') })
    await say(ctx, listing(title, lines, empty))
  },
}
