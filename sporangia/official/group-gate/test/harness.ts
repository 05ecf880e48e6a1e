import { join } from 'node:path'
import { type TestBot, testBot } from '@mycelo/septum/testing'
import { sporeFiles } from '../../kit/catalogues.ts'
import module from '../src/index.ts'

export const files = sporeFiles(join(import.meta.dir, '..'))

export interface GateWorld {
  /** Members per `channel/group`; a group missing here answers null (the channel cannot tell). */
  readonly members: Record<string, readonly string[]>
  /** Channels that have group_membership; every channel unless given. */
  readonly capable?: readonly string[]
  /** The bot's default locale, which an inhibitor speaks. */
  readonly locale?: string
}

const CHANNELS = ['signal', 'discord']

/** group-gate started in a test bot with `config`, over the groups and channels of `world`. */
export function gateBot(config: unknown, world: GateWorld): Promise<TestBot> {
  const members = Object.fromEntries(
    Object.entries(world.members).map(([key, ids]) => {
      const channel = key.split('/')[0]!
      return [key, ids.map((externalId) => ({ channel, externalId }))]
    }),
  )
  const capable = world.capable
  return testBot({
    spore: { from: import.meta.url, module, settings: config as Record<string, unknown> },
    defaultLocale: world.locale ?? 'en',
    groupMembers: members,
    channels:
      capable === undefined
        ? {}
        : Object.fromEntries(
            CHANNELS.map((c) => [c, capable.includes(c) ? ['group_membership' as const] : []]),
          ),
  })
}
