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
    deadlines: config.timeouts,
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
