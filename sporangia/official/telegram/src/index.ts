import type { HyphaModule } from '@mycelo/septum'
import { configSchema, type TelegramConfig } from './config.ts'
import { TelegramHypha } from './hypha.ts'

export type { TelegramConfig } from './config.ts'

export default {
  configSchema,
  create: () => new TelegramHypha(),
} satisfies HyphaModule<TelegramConfig>
