import { join } from 'node:path'
import type { EnzymeContext, IncomingMessage, Invocation } from '@mycelo/septum'
import { sporeFiles } from '../../kit/catalogues.ts'
import { enzymeContext, settingsFor, sporeContext } from '../../kit/contexts.ts'
import radarrModule, { type RadarrApi } from '../../radarr/src/index.ts'
import module, { type MoviesConfig } from '../src/index.ts'

export const files = sporeFiles(join(import.meta.dir, '..'))
const RADARR_DIR = join(import.meta.dir, '..', '..', 'radarr')

/** A started radarr rhiza over `url`, as the core would hand it to movies. */
export async function radarrAt(url: string, apiKey: string): Promise<RadarrApi> {
  const rhiza = radarrModule.create()
  await rhiza.start(sporeContext(settingsFor(radarrModule.configSchema, { url, apiKey, timeoutSeconds: 5 })))
  return rhiza.api
}

export interface MoviesWorld {
  readonly radarr: RadarrApi
  readonly replies?: string[]
  readonly locale?: string
  readonly config?: Partial<MoviesConfig>
}

export function moviesContext(world: MoviesWorld): EnzymeContext<MoviesConfig> {
  const locale = world.locale ?? 'en'
  return enzymeContext({
    config: settingsFor(module.configSchema, world.config ?? {}),
    rhiza: <T>(name: string) => {
      if (name !== 'radarr') throw new Error(`movies requires no rhiza ${name}`)
      return world.radarr as T
    },
    has: (name) => name === 'radarr',
    replies: world.replies,
    principal: { id: 'p-alice', identities: [{ channel: 'chat', externalId: 'alice' }], roles: ['member'] },
    locale,
    t: files.translator(locale, { radarr: RADARR_DIR }),
  })
}

export function invocation(command: 'movie' | 'upcoming', rest: string): Invocation {
  const message: IncomingMessage = {
    channel: 'chat',
    conversationId: 'dm-alice',
    messageId: 'm1',
    sender: { channel: 'chat', externalId: 'alice' },
    text: `/${command} ${rest}`.trim(),
    attachments: [],
    raw: null,
    receivedAt: new Date(),
  }
  const name = command === 'movie' ? 'request' : 'days'
  return { command, args: rest === '' ? {} : { [name]: rest }, rest, message }
}
