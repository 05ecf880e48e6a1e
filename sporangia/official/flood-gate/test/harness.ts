import { join } from 'node:path'
import type { OutgoingContent, PushTarget } from '@mycelo/septum'
import { type TestBot, testBot } from '@mycelo/septum/testing'
import { sporeFiles } from '../../kit/catalogues.ts'
import module from '../src/index.ts'

export const files = sporeFiles(join(import.meta.dir, '..'))

export interface FloodBot {
  readonly bot: TestBot
  /** What the gate sent through messages.send. */
  readonly told: { target: PushTarget; content: OutgoingContent }[]
}

/** flood-gate started in a test bot with `config`, speaking `locale`, its messages.send recorded. */
export async function floodBot(config: Record<string, unknown>, locale = 'en'): Promise<FloodBot> {
  const told: FloodBot['told'] = []
  const bot = await testBot({
    spore: { from: import.meta.url, module, settings: config },
    defaultLocale: locale,
    mycelium: {
      async send(target: PushTarget, content: OutgoingContent) {
        told.push({ target, content })
      },
    },
  })
  return { bot, told }
}
