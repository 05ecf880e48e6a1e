import type { HyphaModule } from '@mycelo/septum'
import { configSchema, type DiscordConfig } from './config.ts'
import { LazyDiscordHypha } from './lazy-hypha.ts'

export type { DiscordConfig } from './config.ts'

export default {
  configSchema,
  create: () => new LazyDiscordHypha(),
} satisfies HyphaModule<DiscordConfig>
