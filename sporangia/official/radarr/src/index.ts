import type { Health, RhizaContext, RhizaModule } from '@mycelo/septum'
import { type RadarrApi, radarrApi } from './api.ts'
import { RadarrFault } from './client.ts'
import { configSchema, type RadarrConfig } from './config.ts'

export type { Movie, QueueItem, RadarrApi } from './api.ts'
export type { RadarrConfig } from './config.ts'

/** Faults that mean Radarr answered but will not serve us: up, yet not usable. */
const DEGRADED = new Set(['fault.unauthorized', 'fault.malformed', 'fault.status', 'fault.tooLarge'])

export default {
  configSchema,
  create: () => {
    const stopping = new AbortController()
    let api: RadarrApi | undefined
    return {
      get api(): RadarrApi {
        if (api === undefined) throw new Error('the radarr rhiza has not started')
        return api
      },
      async start(ctx: RhizaContext<RadarrConfig>) {
        api = radarrApi(ctx.config, stopping.signal)
      },
      async stop() {
        stopping.abort()
      },
      async health(): Promise<Health> {
        const checkedAt = new Date()
        if (api === undefined) return { state: 'unreachable', detail: 'not started', checkedAt }
        try {
          const status = await api.status()
          return { state: 'healthy', detail: `${status.appName} ${status.version}`, checkedAt }
        } catch (error) {
          const key = error instanceof RadarrFault ? error.ref.key : ''
          const state = DEGRADED.has(key) ? 'degraded' : 'unreachable'
          return { state, detail: (error as Error).message, checkedAt }
        }
      },
    }
  },
} satisfies RhizaModule<RadarrApi, RadarrConfig>
