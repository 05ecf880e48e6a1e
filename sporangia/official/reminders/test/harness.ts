import type { EnzymeContext } from '@mycelo/septum'
import { type TestBot, testBot } from '@mycelo/septum/testing'
import { sporeFiles } from '../../kit/catalogues.ts'
import module, { type RemindersConfig } from '../src/index.ts'

export const files = sporeFiles(new URL('..', import.meta.url).pathname)

export interface Bench {
  readonly bot: TestBot
  readonly storage: ReturnType<TestBot['storage']>
  readonly schedule: ReturnType<TestBot['schedule']>
  /** What the reminders pushed, as target and text. */
  readonly pushed: readonly { target: { channel: string; conversationId: string }; text: string }[]
  /** Says `text` as `principal`, in `locale`, and answers its replies joined by lines. */
  say(text: string, options?: { principal?: string; locale?: string }): Promise<string>
  context(options?: { principal?: string; locale?: string }): EnzymeContext<RemindersConfig>
}

/** The reminders enzyme in a test bot whose clock starts at `now`. */
export async function bench(now: Date, settings: Record<string, unknown> = {}): Promise<Bench> {
  const bot = await testBot({ spore: { from: import.meta.url, module, settings }, now })
  const asSaid = (options: { principal?: string; locale?: string }) => ({
    person: options.principal ?? 'p-alice',
    ...(options.locale === undefined ? {} : { locale: options.locale }),
  })
  return {
    bot,
    storage: bot.storage(),
    schedule: bot.schedule(),
    get pushed() {
      return bot.pushes.map((push) => ({ target: push.target, text: push.content.text ?? '' }))
    },
    say: async (text, options = {}) => (await bot.say(text, asSaid(options))).join('\n'),
    context: (options = {}) => bot.context<RemindersConfig>(asSaid(options)),
  }
}
