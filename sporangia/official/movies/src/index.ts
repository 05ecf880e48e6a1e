import type { EnzymeModule } from '@mycelo/septum'
import { configSchema, type MoviesConfig } from './config.ts'
import { movie, upcoming } from './handlers.ts'

export type { MoviesConfig } from './config.ts'

export default {
  configSchema,
  create: () => ({ handlers: { movie, upcoming } }),
} satisfies EnzymeModule<MoviesConfig>
