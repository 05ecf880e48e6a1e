import type { HyphaModule } from '@mycelo/septum'
import { configSchema, type DiscordConfig } from './config.ts'
import { DiscordHypha } from './hypha.ts'

export type { DiscordConfig } from './config.ts'
export { DiscordConnectError } from './connect-refusal.ts'

export default {
  configSchema,
  create: () => new DiscordHypha(),
} satisfies HyphaModule<DiscordConfig>
