import type { GerminatedSpore } from '../germination/index.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'

/** Placeholder until the scope modules land: every scope's methods are absent. */
export function createMycelium(_runtime: CoreRuntime): (spore: GerminatedSpore) => object {
  return () => ({})
}
