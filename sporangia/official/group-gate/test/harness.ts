import { join } from 'node:path'
import type { ChannelIdentity, InhibitorContext } from '@mycelo/septum'
import { sporeFiles } from '../../kit/catalogues.ts'
import { settingsFor, sporeContext } from '../../kit/contexts.ts'
import module, { type GroupGateConfig } from '../src/index.ts'

export const files = sporeFiles(join(import.meta.dir, '..'))

export interface GateWorld {
  /** Members per `channel/group`; a group missing here answers null (the channel cannot tell). */
  readonly members: Record<string, readonly string[]>
  /** Channels that have group_membership. */
  readonly capable?: readonly string[]
  /** Every membership question asked, as `channel/group`. */
  readonly asked?: string[]
  readonly locale?: string
}

export function gateContext(config: unknown, world: GateWorld): InhibitorContext<GroupGateConfig> {
  return {
    ...sporeContext(settingsFor(module.configSchema, config), {
      rhiza: () => {
        throw new Error('group-gate requires no rhiza')
      },
    }),
    t: files.translator(world.locale ?? 'en'),
    async groupMembers(channel, groupId): Promise<readonly ChannelIdentity[] | null> {
      world.asked?.push(`${channel}/${groupId}`)
      const ids = world.members[`${channel}/${groupId}`]
      return ids === undefined ? null : ids.map((externalId) => ({ channel, externalId }))
    },
    requireCapability(channel, capability) {
      if (!(world.capable ?? [channel]).includes(channel))
        throw new Error(`${channel} has no ${capability}: group-gate cannot enforce its rule there`)
    },
  }
}
