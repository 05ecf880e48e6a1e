import type { EnzymeContext, EnzymeModule, EnzymeStartContext, Invocation } from '@mycelo/septum'
import { configSchema, type WebhooksConfig } from './config.ts'
import { relayRoutes } from './relay.ts'

export type { WebhooksConfig } from './config.ts'

/** `/webhooks`: where to point senders, and where their messages go. */
async function webhooks(_invocation: Invocation, ctx: EnzymeContext<WebhooksConfig>): Promise<void> {
  const targets = ctx.config.targets.map((target) => `${target.channel}/${target.conversationId}`).join(', ')
  await ctx.reply({
    text: ctx.t('webhooks.summary', {
      github: '/spores/webhooks/github',
      generic: '/spores/webhooks/generic',
      count: ctx.config.targets.length,
      targets,
    }),
  })
}

export default {
  configSchema,
  create: () => {
    let started: EnzymeStartContext<WebhooksConfig> | undefined
    return {
      handlers: { webhooks },
      routes: relayRoutes(() => started),
      async start(ctx: EnzymeStartContext<WebhooksConfig>) {
        started = ctx
      },
      async stop() {
        started = undefined
      },
    }
  },
} satisfies EnzymeModule<WebhooksConfig>
