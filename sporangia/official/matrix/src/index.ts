import type { HyphaModule } from '@mycelo/septum'
import { configSchema, type MatrixConfig } from './config.ts'
import { LazyMatrixHypha } from './lazy-hypha.ts'

export type { MatrixConfig } from './config.ts'

export default {
  configSchema,
  create: () => new LazyMatrixHypha(),
} satisfies HyphaModule<MatrixConfig>
