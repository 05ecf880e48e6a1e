import type { HyphaModule } from '@mycelo/septum'
import { configSchema, type SignalConfig } from './config.ts'
import { createSignalHypha } from './hypha.ts'

export type { SignalConfig } from './config.ts'
export { createSignalHypha, type SignalHypha, type SignalHyphaOptions } from './hypha.ts'

export default {
  configSchema,
  create: () => createSignalHypha(),
} satisfies HyphaModule<SignalConfig>
