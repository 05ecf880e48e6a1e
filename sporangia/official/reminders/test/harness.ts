import { join } from 'node:path'
import type { EnzymeContext, IncomingMessage, Invocation, OutgoingContent, PushTarget } from '@mycelo/septum'
import {
  type ManualSchedule,
  type MemoryStorage,
  manualSchedule,
  memoryStorage,
} from '@mycelo/septum/conformance'
import { sporeFiles } from '../../kit/catalogues.ts'
import { enzymeContext, settingsFor } from '../../kit/contexts.ts'
import module, { type RemindersConfig } from '../src/index.ts'

export const files = sporeFiles(join(import.meta.dir, '..'))

export interface Bench {
  readonly storage: MemoryStorage
  readonly schedule: ManualSchedule
  readonly pushed: { target: PushTarget; text: string }[]
  readonly instance: ReturnType<typeof module.create>
  /** Runs a command as `principal`, in `locale`, and answers its reply. */
  say(text: string, options?: { principal?: string; locale?: string }): Promise<string>
  context(options?: { principal?: string; locale?: string }): EnzymeContext<RemindersConfig>
}

const ARGS: Readonly<Record<string, string>> = {
  remind: 'request',
  forget: 'number',
  timezone: 'zone',
}

/** A started reminders enzyme over the kit's storage and a schedule whose clock starts at `now`. */
export async function bench(now: Date, settings: Record<string, unknown> = {}): Promise<Bench> {
  const config = settingsFor(module.configSchema, settings)
  const storage = memoryStorage()
  const schedule = manualSchedule({ now })
  const pushed: { target: PushTarget; text: string }[] = []
  const instance = module.create()
  const context = (options: { principal?: string; locale?: string } = {}, replies: string[] = []) => {
    const locale = options.locale ?? 'en'
    return enzymeContext<RemindersConfig>({
      config,
      storage,
      schedule,
      replies,
      async push(target: PushTarget, content: OutgoingContent) {
        pushed.push({ target, text: content.text ?? '' })
      },
      principal: { id: options.principal ?? 'p-alice', identities: [], roles: [] },
      locale,
      t: files.translator(locale),
    })
  }
  await instance.start?.(context())
  return {
    storage,
    schedule,
    pushed,
    instance,
    context,
    async say(text, options = {}) {
      const [word, ...rest] = text.split(' ')
      const command = word!.slice(1)
      const argName = ARGS[command]
      const restText = rest.join(' ')
      const message: IncomingMessage = {
        channel: 'chat',
        conversationId: `dm-${options.principal ?? 'p-alice'}`,
        messageId: 'm',
        sender: { channel: 'chat', externalId: options.principal ?? 'alice' },
        text,
        attachments: [],
        raw: null,
        receivedAt: new Date(),
      }
      const invocation: Invocation = {
        command,
        args: argName !== undefined && restText !== '' ? { [argName]: restText } : {},
        rest: restText,
        message,
      }
      const replies: string[] = []
      await instance.handlers[command]!(invocation, context(options, replies))
      return replies.join('\n')
    },
  }
}
