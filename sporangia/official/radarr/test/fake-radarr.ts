// A Radarr on loopback that speaks the v3 JSON the way Radarr documents it: X-Api-Key on every
// call, movie resources from lookup (id 0 until added), 201 on add, a validation array on a
// refused add, a paged queue. Shared by the radarr and movies tests.
import type { Server } from 'bun'

export interface FakeMovie {
  readonly title: string
  readonly year: number
  readonly tmdbId: number
  readonly overview?: string
  readonly inCinemas?: string
  readonly digitalRelease?: string
  readonly physicalRelease?: string
}

export interface FakeRadarrOptions {
  readonly apiKey?: string
  /** Every movie Radarr's metadata source knows. */
  readonly catalogue: readonly FakeMovie[]
  /** TMDb ids already in the library. */
  readonly library?: readonly number[]
  readonly queue?: readonly { tmdbId: number; status: string; size: number; sizeleft: number; eta?: string }[]
}

export interface Asked {
  readonly method: string
  readonly path: string
  readonly query: Record<string, string>
  readonly apiKey: string | null
  readonly body?: unknown
}

export interface FakeRadarr {
  readonly url: string
  readonly apiKey: string
  readonly asked: Asked[]
  /** The POST /movie bodies Radarr accepted, in order. */
  readonly added: Record<string, unknown>[]
  /** From now on every call waits this long before answering (0 answers at once). */
  delay(ms: number): void
  /** From now on every call answers this status (undefined heals it). */
  failWith(status: number | undefined): void
  stop(): Promise<void>
}

const json = (body: unknown, status = 200) => Response.json(body, { status })

export function startFakeRadarr(options: FakeRadarrOptions): FakeRadarr {
  const apiKey = options.apiKey ?? 'a-radarr-key'
  const library = new Map<number, number>((options.library ?? []).map((tmdb, index) => [tmdb, index + 1]))
  const asked: Asked[] = []
  const added: Record<string, unknown>[] = []
  let delayMs = 0
  let failure: number | undefined
  const resource = (movie: FakeMovie) => ({
    id: library.get(movie.tmdbId) ?? 0,
    title: movie.title,
    sortTitle: movie.title.toLowerCase(),
    year: movie.year,
    tmdbId: movie.tmdbId,
    imdbId: `tt${movie.tmdbId}`,
    overview: movie.overview ?? '',
    status: 'released',
    monitored: library.has(movie.tmdbId),
    hasFile: false,
    images: [],
    titleSlug: `${movie.tmdbId}`,
    ...(movie.inCinemas && { inCinemas: movie.inCinemas }),
    ...(movie.digitalRelease && { digitalRelease: movie.digitalRelease }),
    ...(movie.physicalRelease && { physicalRelease: movie.physicalRelease }),
  })
  const within = (date: string | undefined, start: number, end: number) =>
    date !== undefined && Date.parse(date) >= start && Date.parse(date) <= end

  const routes: Record<string, (query: Record<string, string>, body: unknown) => Response> = {
    'GET /api/v3/system/status': () =>
      json({ appName: 'Radarr', instanceName: 'Radarr', version: '5.14.0.9383', isDocker: false }),
    'GET /api/v3/movie/lookup': (query) => {
      const term = (query.term ?? '').toLowerCase()
      return json(options.catalogue.filter((movie) => movie.title.toLowerCase().includes(term)).map(resource))
    },
    'GET /api/v3/movie/lookup/tmdb': (query) => {
      const movie = options.catalogue.find((candidate) => String(candidate.tmdbId) === query.tmdbId)
      return movie ? json(resource(movie)) : json({ message: 'NotFound' }, 404)
    },
    'GET /api/v3/qualityprofile': () =>
      json([
        { id: 4, name: 'HD-1080p' },
        { id: 6, name: 'Ultra-HD' },
      ]),
    'GET /api/v3/rootfolder': () => json([{ id: 1, path: '/movies', accessible: true, freeSpace: 1e12 }]),
    'POST /api/v3/movie': (_query, body) => {
      const movie = body as { tmdbId: number; title: string }
      if (library.has(movie.tmdbId))
        return json(
          [
            {
              propertyName: 'TmdbId',
              errorMessage: 'This movie has already been added',
              attemptedValue: movie.tmdbId,
              severity: 'error',
              errorCode: 'MovieExistsValidator',
            },
          ],
          400,
        )
      library.set(movie.tmdbId, library.size + 1)
      added.push(body as Record<string, unknown>)
      return json({ ...movie, id: library.get(movie.tmdbId) }, 201)
    },
    'GET /api/v3/calendar': (query) => {
      const start = Date.parse(query.start ?? '')
      const end = Date.parse(query.end ?? '')
      return json(
        options.catalogue
          .filter((movie) => library.has(movie.tmdbId))
          .filter((movie) =>
            [movie.inCinemas, movie.digitalRelease, movie.physicalRelease].some((d) => within(d, start, end)),
          )
          .map(resource),
      )
    },
    'GET /api/v3/queue': () => {
      const records = (options.queue ?? []).map((item, index) => {
        const movie = options.catalogue.find((candidate) => candidate.tmdbId === item.tmdbId)!
        return {
          id: index + 1,
          movieId: library.get(item.tmdbId),
          movie: resource(movie),
          title: `${movie.title}.${movie.year}.1080p.WEB-DL`,
          status: item.status,
          size: item.size,
          sizeleft: item.sizeleft,
          ...(item.eta && { estimatedCompletionTime: item.eta }),
          trackedDownloadStatus: 'ok',
          protocol: 'torrent',
        }
      })
      return json({ page: 1, pageSize: 50, sortKey: 'timeleft', totalRecords: records.length, records })
    },
  }

  const server: Server<undefined> = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      const body = request.method === 'POST' ? await request.json() : undefined
      const key = request.headers.get('x-api-key')
      asked.push({
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        apiKey: key,
        ...(body !== undefined && { body }),
      })
      if (delayMs > 0) await Bun.sleep(delayMs)
      if (failure !== undefined) return json({ message: 'failing on purpose' }, failure)
      // Radarr answers 401 with an empty body to a missing or wrong key.
      if (key !== apiKey) return new Response(null, { status: 401 })
      const route = routes[`${request.method} ${url.pathname}`]
      return route ? route(Object.fromEntries(url.searchParams), body) : json({ message: 'NotFound' }, 404)
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    apiKey,
    asked,
    added,
    delay: (ms) => {
      delayMs = ms
    },
    failWith: (status) => {
      failure = status
    },
    stop: () => server.stop(true),
  }
}

/** The films the tests share. Release dates are set around `now` by the caller where it matters. */
export const MATRIX: FakeMovie = { title: 'The Matrix', year: 1999, tmdbId: 603, overview: 'A hacker…' }
export const MATRIX_RELOADED: FakeMovie = { title: 'The Matrix Reloaded', year: 2003, tmdbId: 604 }
