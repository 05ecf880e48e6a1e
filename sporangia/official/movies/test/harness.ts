import { join } from 'node:path'
import { type TestBot, testBot } from '@mycelo/septum/testing'
import { sporeFiles } from '../../kit/catalogues.ts'
import radarrModule from '../../radarr/src/index.ts'
import module from '../src/index.ts'

export const files = sporeFiles(join(import.meta.dir, '..'))
const RADARR_DIR = join(import.meta.dir, '..', '..', 'radarr')

/** movies in a test bot, over a radarr rhiza started against `url` with `apiKey`. */
export function moviesBot(
  radarr: { url: string; apiKey: string },
  settings: Record<string, unknown> = {},
): Promise<TestBot> {
  return testBot({
    spore: { from: import.meta.url, module, settings },
    rhizas: {
      radarr: {
        from: RADARR_DIR,
        module: radarrModule,
        settings: { url: radarr.url, apiKey: radarr.apiKey, timeoutSeconds: 5 },
      },
    },
  })
}
