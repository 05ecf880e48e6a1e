import type { IncomingMessage, InhibitorContext, InhibitorModule, Verdict } from '@mycelo/septum'
import { configSchema, type GroupGateConfig } from './config.ts'
import { Membership } from './membership.ts'

export type { GroupGateConfig } from './config.ts'

const ALLOW: Verdict = { allow: true }

export default {
  configSchema,
  create: () => {
    let membership: Membership | undefined
    return {
      async start(ctx: InhibitorContext<GroupGateConfig>) {
        // A channel that cannot list members would leave this rule inert: refuse to start instead.
        for (const channel of Object.keys(ctx.config.groups))
          ctx.requireCapability(channel, 'group_membership')
        membership = new Membership({
          lookup: (channel, group) => ctx.groupMembers(channel, group),
          ttlMs: ctx.config.cacheSeconds * 1000,
        })
      },
      async stop() {
        membership?.clear()
      },
      async inspect(message: IncomingMessage, ctx: InhibitorContext<GroupGateConfig>): Promise<Verdict> {
        const { channel } = message
        const groups = ctx.config.groups[channel]
        if (groups === undefined)
          return { allow: false, reason: ctx.t('refusal.unguardedChannel', { channel }) }
        if (membership === undefined) throw new Error('group-gate inspected a message before start()')
        const sender = message.sender.displayName ?? message.sender.externalId
        const standing = await membership.standing(channel, groups, message.sender.externalId)
        if (standing === 'member') return ALLOW
        const key = standing === 'unknown' ? 'refusal.membershipUnknown' : 'refusal.notMember'
        return { allow: false, reason: ctx.t(key, { channel, sender, groups: groups.join(', ') }) }
      },
    }
  },
} satisfies InhibitorModule<GroupGateConfig>
