import type { Logger } from '@mycelo/septum'
import { type Germination, germinate } from '../germination/index.ts'
import type { PluginStore } from '../store/index.ts'
import type { MyceloConfig } from './config.ts'

/** Germination as mycelo.yaml configures it: the bot and the command line read the spores alike. */
export function germinateConfigured(
  config: MyceloConfig,
  plugins: PluginStore,
  logger: Logger,
): Promise<Germination> {
  return germinate({
    folders: config.spores,
    store: plugins,
    logger,
    createDeadlineMs: config.timeouts.create,
    installs: config.sporangia.installs,
  })
}
