import { join } from 'node:path'
import type { EnzymeContext, IncomingMessage, Invocation } from '@mycelo/septum'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { recordingLogger, sporeFiles } from '../../kit/catalogues.ts'
import radarrModule, { type RadarrApi } from '../../radarr/src/index.ts'
import module, { type MoviesConfig } from '../src/index.ts'

export const files = sporeFiles(join(import.meta.dir, '..'))
const RADARR_DIR = join(import.meta.dir, '..', '..', 'radarr')

/** A started radarr rhiza over `url`, as the core would hand it to movies. */
export async function radarrAt(url: string, apiKey: string): Promise<RadarrApi> {
  const parsed = radarrModule.configSchema.safeParse({ url, apiKey, timeoutSeconds: 5 })
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues))
  const rhiza = radarrModule.create()
  await rhiza.start({
    config: parsed.data,
    logger: recordingLogger(),
    rhiza: () => ({}) as never,
    has: () => false,
    storage: memoryStorage(),
    schedule: manualSchedule(),
  })
  return rhiza.api
}

export interface MoviesWorld {
  readonly radarr: RadarrApi
  readonly replies?: string[]
  readonly locale?: string
  readonly config?: Partial<MoviesConfig>
}

export function moviesContext(world: MoviesWorld): EnzymeContext<MoviesConfig> {
  const parsed = module.configSchema.safeParse(world.config ?? {})
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues))
  const locale = world.locale ?? 'en'
  const none = { has: () => false, list: () => [] }
  return {
    config: parsed.data,
    logger: recordingLogger(),
    rhiza: <T>(name: string) => {
      if (name !== 'radarr') throw new Error(`movies requires no rhiza ${name}`)
      return world.radarr as T
    },
    has: (name) => name === 'radarr',
    storage: memoryStorage(),
    schedule: manualSchedule(),
    async reply(content) {
      world.replies?.push(content.text ?? '')
    },
    async push() {},
    capabilities: none,
    capabilitiesOf: () => none,
    principal: { id: 'p-alice', identities: [{ channel: 'chat', externalId: 'alice' }], roles: ['member'] },
    locale,
    on() {},
    t: files.translator(locale, { radarr: RADARR_DIR }),
    localeFor: () => Promise.resolve('en'),
  }
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
