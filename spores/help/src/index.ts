import type { EnzymeModule } from '@mycelo/septum'
import { configSchema, type HelpConfig } from './config.ts'
import { help } from './help.ts'

export type { HelpConfig } from './config.ts'

export default {
  configSchema,
  create: () => ({ handlers: { help } }),
} satisfies EnzymeModule<HelpConfig>
