import type { OutcomeOf, TranslatableRef } from '@mycelo/septum'
import { z } from 'zod'
import { RadarrClient, RadarrFault } from './client.ts'
import type { RadarrConfig } from './config.ts'
import {
  movieSchema,
  qualityProfilesSchema,
  queueSchema,
  type RadarrMovieResource,
  rootFoldersSchema,
  systemStatusSchema,
  validationSchema,
} from './shapes.ts'

/** A movie as other spores read it. Dates are ISO 8601 strings, as Radarr sends them. */
export interface Movie {
  readonly title: string
  readonly year?: number
  readonly tmdbId: number
  readonly overview?: string
  /** Already in this Radarr's library. */
  readonly inLibrary: boolean
  readonly hasFile: boolean
  readonly releases: { readonly cinemas?: string; readonly digital?: string; readonly physical?: string }
}

export interface QueueItem {
  readonly title: string
  readonly status: string
  /** Downloaded share, 0 to 1, when Radarr knows the size. */
  readonly progress?: number
  readonly estimatedCompletion?: string
}

/** What `ctx.rhiza('radarr')` answers. Faults (network, key, shape) throw; refusals are outcomes. */
export interface RadarrApi {
  status(): Promise<{ readonly appName: string; readonly version: string }>
  lookup(term: string): Promise<readonly Movie[]>
  /** Adds by TMDb id with the configured (or Radarr's first) quality profile and root folder. */
  add(tmdbId: number): Promise<OutcomeOf<Movie>>
  /** Movies with a release between `start` and `end`. */
  calendar(range: { readonly start: Date; readonly end: Date }): Promise<readonly Movie[]>
  queue(): Promise<readonly QueueItem[]>
  /** The words of a fault this api threw (in the radarr domain), or undefined for any other error. */
  faultOf(error: unknown): TranslatableRef | undefined
}

const refusal = (key: string, params: Record<string, unknown>) => ({
  ok: false as const,
  refusal: { domain: 'radarr', key, params },
})

function toMovie(resource: RadarrMovieResource): Movie {
  return {
    title: resource.title,
    ...(resource.year !== undefined && resource.year > 0 && { year: resource.year }),
    tmdbId: resource.tmdbId,
    ...(resource.overview !== undefined && { overview: resource.overview }),
    inLibrary: (resource.id ?? 0) > 0,
    hasFile: resource.hasFile ?? false,
    releases: {
      ...(resource.inCinemas !== undefined && { cinemas: resource.inCinemas }),
      ...(resource.digitalRelease !== undefined && { digital: resource.digitalRelease }),
      ...(resource.physicalRelease !== undefined && { physical: resource.physicalRelease }),
    },
  }
}

const movies = z.array(movieSchema)

export function radarrApi(config: RadarrConfig, stopped: AbortSignal): RadarrApi {
  const client = new RadarrClient({
    url: config.url,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutSeconds * 1000,
    stopped,
  })
  /** A 2xx answer or a fault: for calls where Radarr has no business refusal to give. */
  const read = async <T>(path: string, schema: z.ZodType<T>, query?: Record<string, string>): Promise<T> => {
    const answer = await client.call(path, schema, query === undefined ? {} : { query })
    if ('ok' in answer) return answer.value
    throw new RadarrFault({ domain: 'radarr', key: 'fault.status', params: { status: answer.status } }, path)
  }

  async function placement(): Promise<OutcomeOf<{ qualityProfileId: number; rootFolderPath: string }>> {
    const qualityProfileId =
      config.qualityProfileId ?? (await read('/qualityprofile', qualityProfilesSchema))[0]?.id
    if (qualityProfileId === undefined) return refusal('refusal.noQualityProfile', {})
    const rootFolderPath = config.rootFolderPath ?? (await read('/rootfolder', rootFoldersSchema))[0]?.path
    if (rootFolderPath === undefined) return refusal('refusal.noRootFolder', {})
    return { ok: true, value: { qualityProfileId, rootFolderPath } }
  }

  return {
    async status() {
      const status = await read('/system/status', systemStatusSchema)
      return { appName: status.appName ?? 'Radarr', version: status.version }
    },
    async lookup(term) {
      return (await read('/movie/lookup', movies, { term })).map(toMovie)
    },
    async add(tmdbId) {
      const found = await client.call('/movie/lookup/tmdb', movieSchema, {
        query: { tmdbId: String(tmdbId) },
      })
      if (!('ok' in found)) return refusal('refusal.unknownMovie', { id: tmdbId })
      if ((found.value.id ?? 0) > 0) return refusal('refusal.exists', { title: found.value.title })
      const placed = await placement()
      if (!placed.ok) return placed
      const body = {
        ...found.value,
        ...placed.value,
        monitored: true,
        minimumAvailability: config.minimumAvailability,
        addOptions: { searchForMovie: config.searchOnAdd },
      }
      const added = await client.call('/movie', movieSchema, { method: 'POST', body })
      if ('ok' in added) return { ok: true, value: toMovie(added.value) }
      const problems = validationSchema.safeParse(added.body)
      const list = problems.success ? problems.data : []
      if (list.some((problem) => problem.errorCode === 'MovieExistsValidator'))
        return refusal('refusal.exists', { title: found.value.title })
      const reasons = list.map((problem) => problem.errorMessage).join('; ') || `HTTP ${added.status}`
      return refusal('refusal.invalid', { title: found.value.title, reasons })
    },
    async calendar({ start, end }) {
      const query = { start: start.toISOString(), end: end.toISOString(), unmonitored: 'false' }
      return (await read('/calendar', movies, query)).map(toMovie)
    },
    async queue() {
      const page = await read('/queue', queueSchema, { page: '1', pageSize: '50', includeMovie: 'true' })
      return page.records.map((record) => ({
        title: record.movie?.title ?? record.title,
        status: record.status,
        ...(record.size !== undefined &&
          record.size > 0 &&
          record.sizeleft !== undefined && { progress: 1 - record.sizeleft / record.size }),
        ...(record.estimatedCompletionTime !== undefined && {
          estimatedCompletion: record.estimatedCompletionTime,
        }),
      }))
    },
    faultOf: faultRef,
  }
}

/**
 * The words of a RadarrFault. Across a spore host an error arrives rebuilt, as a plain Error with
 * the fault's name and its `ref`: that is recognised too.
 */
function faultRef(error: unknown): TranslatableRef | undefined {
  if (error instanceof RadarrFault) return error.ref
  const rebuilt = error as { name?: unknown; ref?: Partial<TranslatableRef> } | null
  if (!(error instanceof Error) || rebuilt?.name !== 'RadarrFault') return undefined
  const ref = rebuilt.ref
  return ref?.domain === 'radarr' && typeof ref.key === 'string' ? (ref as TranslatableRef) : undefined
}
