import { Document } from 'yaml'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import { DOCUMENT_HEADER } from './document.ts'
import { readState } from './state.ts'

/** The operator's state as the YAML file `import` reads back; keys in a stable order. */
export async function exportConfiguration(
  runtime: CoreRuntime,
  options: { secrets: boolean; data?: boolean },
): Promise<string> {
  const document = new Document(await readState(runtime, options))
  document.commentBefore = DOCUMENT_HEADER
  return document.toString({ lineWidth: 0 })
}
