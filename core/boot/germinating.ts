import type { Logger } from '@mycelo/septum'
import { type Germination, germinate } from '../germination/index.ts'
import { hostKeeper } from '../hosts/keeper.ts'
import type { PluginStore } from '../store/index.ts'
import type { MyceloConfig } from './config.ts'

/** Germination as mycelo.yaml configures it: the bot and the command line read the spores alike. */
export function germinateConfigured(
  config: MyceloConfig,
  plugins: PluginStore,
  logger: Logger,
): Promise<Germination> {
  configureHosts(config, logger)
  return germinate({
    folders: config.spores,
    store: plugins,
    logger,
    createDeadlineMs: config.timeouts.create,
    installs: config.sporangia.installs,
  })
}

/** The hosts follow mycelo.yaml: which spores run isolated, their deadlines and memory ceilings. */
export function configureHosts(config: MyceloConfig, logger: Logger): void {
  const { isolation, limits } = config
  hostKeeper.configure({
    logger: logger.child({ part: 'hosts' }),
    deadlines: { ...config.timeouts, send: bridgedSendMs(config) },
    answerMs: isolation.answerMs,
    policy: {
      ...(isolation.default === undefined ? {} : { default: isolation.default }),
      spores: isolation.spores,
      allow: isolation.allow,
      memoryMiB: limits.memoryMiB,
      memory: limits.spores,
    },
  })
}

/**
 * How long the bridge lets an isolated hypha's send run. The outbox bounds each try itself (within
 * outbox.sendWithinSeconds); the bridge waits a send deadline longer, so it never cuts a try the
 * outbox still waits on, and a confirmation that comes just after the outbox gave up still reaches
 * it (the message is then settled, not sent again).
 */
export function bridgedSendMs(config: MyceloConfig): number {
  return config.outbox.sendWithinSeconds * 1000 + config.timeouts.send
}
