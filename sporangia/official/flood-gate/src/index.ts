import type {
  IncomingMessage,
  InhibitorContext,
  InhibitorModule,
  MessagesSend,
  Verdict,
} from '@mycelo/septum'
import { type Bucket, bucketKey, isSpent, type Rule, take } from './bucket.ts'
import { configSchema, type FloodGateConfig } from './config.ts'

export type { FloodGateConfig } from './config.ts'

type Context = InhibitorContext<FloodGateConfig>

const ALLOW: Verdict = { allow: true }
/** Buckets that say nothing a fresh one would not are swept this often. */
const SWEEP_CRON = '*/15 * * * *'

const ruleOf = (config: FloodGateConfig): Rule => ({
  capacity: config.messages,
  windowMs: config.windowSeconds * 1000,
})

/**
 * The "slow down": a refusal is silent on the channel, so the operator's log always has it, and
 * the sender hears it only in a direct conversation (never in a group) when tellSender is on.
 */
async function slowDown(ctx: Context, message: IncomingMessage): Promise<void> {
  const { channel, conversationId, sender } = message
  ctx.logger.warn('a sender is over the flood limit; their messages are ignored until it refills', {
    channel,
    sender: sender.externalId,
  })
  if (!ctx.config.tellSender || message.group !== undefined) return
  const text = ctx.t('slowDown', { messages: ctx.config.messages, seconds: ctx.config.windowSeconds })
  try {
    await ctx.rhiza<MessagesSend>('mycelium').send({ channel, conversationId }, { text })
  } catch (error) {
    ctx.logger.warn('the slow-down notice could not be sent', { channel, error: String(error) })
  }
}

export default {
  configSchema,
  create: () => ({
    async start(ctx: Context) {
      const rule = ruleOf(ctx.config)
      await ctx.schedule.cron(SWEEP_CRON, { id: 'sweep' }, async () => {
        const now = Date.now()
        const stale = (await ctx.storage.list<Bucket>('bucket:')).filter((entry) =>
          isSpent(entry.value, now, rule),
        )
        await ctx.storage.transaction((tx) => {
          for (const entry of stale) tx.delete(entry.key)
        })
      })
    },
    async inspect(message: IncomingMessage, ctx: Context): Promise<Verdict> {
      const { channel, sender } = message
      if (ctx.config.exempt.includes(`${channel}:${sender.externalId}`)) return ALLOW
      const key = bucketKey(channel, sender.externalId)
      const rule = ruleOf(ctx.config)
      // Read, spend and write in one transaction, so two messages at once cannot both spend the last token.
      const taken = await ctx.storage.transaction((tx) => {
        const result = take(tx.get<Bucket>(key), Date.now(), rule)
        tx.set(key, result.bucket)
        return result
      })
      if (taken.allowed) return ALLOW
      if (taken.warn) await slowDown(ctx, message)
      return {
        allow: false,
        reason: ctx.t('refusal.overLimit', {
          sender: sender.displayName ?? sender.externalId,
          channel,
          messages: ctx.config.messages,
          seconds: ctx.config.windowSeconds,
        }),
      }
    },
  }),
} satisfies InhibitorModule<FloodGateConfig>
