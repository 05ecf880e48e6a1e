import type { AgentKeyInfo } from '@mycelo/septum'
import { answer, arg, listing, refusalText, say, usage } from './answers.ts'
import { type AdminContext, type Handlers, myceliumOf } from './mycelium.ts'

const ACTIONS = new Set(['create', 'revoke', 'confirm-here', 'confirm-in-client'])

/** The keys an MCP client acts with: each is the reader's own, so it never reaches past their roles. */
export const agentKeyHandlers: Handlers = {
  async agentKeys(_invocation, ctx) {
    const mycelium = myceliumOf(ctx)
    const keys = await mycelium.listAgentKeys()
    // Each key's person by name, as the bot shows them, never by the bot's id for them.
    const names = new Map<string, string>()
    for (const id of new Set(keys.map((key) => key.principalId))) {
      const person = await mycelium.getPrincipal(id)
      const identity = person?.identities[0]
      names.set(id, person?.displayName || identity?.displayName || identity?.externalId || id)
    }
    const lines = keys.map((key) => keyLine(ctx, key, names.get(key.principalId) ?? key.principalId))
    await say(ctx, listing(ctx.t('agentKeys.title', { count: keys.length }), lines, ctx.t('agentKeys.empty')))
  },

  async agentKey(invocation, ctx) {
    const action = arg(invocation, 'action')?.toLowerCase()
    const target = arg(invocation, 'target')
    if (target === undefined || action === undefined || !ACTIONS.has(action)) return usage(invocation, ctx)
    if (action === 'revoke') {
      const outcome = await myceliumOf(ctx).revokeAgentKey(target)
      return answer(ctx, outcome, () => ctx.t('agentKey.revoked', { id: target }))
    }
    if (action === 'confirm-here' || action === 'confirm-in-client') {
      const { channel, conversationId } = invocation.message
      const here = action === 'confirm-here' ? { channel, conversationId } : null
      const outcome = await myceliumOf(ctx).confirmAgentKeyIn(target, here)
      return answer(ctx, outcome, () =>
        ctx.t(here ? 'agentKey.confirmHere' : 'agentKey.confirmInClient', { id: target }),
      )
    }
    // A secret said in a group is read by everyone there.
    if (invocation.message.group !== undefined) return say(ctx, ctx.t('agentKey.dmOnly'))
    const created = await myceliumOf(ctx).createAgentKey(target)
    if (!created.ok) return say(ctx, refusalText(ctx, created.refusal))
    const { key, secret } = created.value
    await say(ctx, ctx.t('agentKey.created', { id: key.id, label: key.label, secret }))
  },
}

function keyLine(ctx: AdminContext, key: AgentKeyInfo, person: string): string {
  return ctx.t('agentKeys.line', {
    id: key.id,
    label: key.label,
    principal: person,
    created: key.createdAt,
    used: key.lastUsedAt === null ? 'no' : 'yes',
    lastUsed: key.lastUsedAt ?? key.createdAt,
    revoked: key.revokedAt === null ? 'no' : 'yes',
    over: key.confirmIn === null ? 'client' : 'chat',
  })
}
