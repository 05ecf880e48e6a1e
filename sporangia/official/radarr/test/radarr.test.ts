import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { rhizaChecks } from '@mycelo/septum/conformance'
import { type TestBot, testBot } from '@mycelo/septum/testing'
import { sporeFiles } from '../../kit/catalogues.ts'
import module, { type RadarrApi, type RadarrConfig } from '../src/index.ts'
import { type FakeRadarr, MATRIX, MATRIX_RELOADED, startFakeRadarr } from './fake-radarr.ts'

const files = sporeFiles(join(import.meta.dir, '..'))

const bots: TestBot[] = []

/** The rhiza started in a test bot with `settings`: its api and health as a consumer sees them. */
async function started(settings: Record<string, unknown>) {
  const bot = await testBot({ spore: { from: import.meta.url, module, settings } })
  bots.push(bot)
  return {
    api: bot.rhiza<RadarrApi>('radarr'),
    health: () => bot.health(),
    context: () => bot.context<RadarrConfig>(),
  }
}

let radarr: FakeRadarr
let api: RadarrApi
beforeAll(async () => {
  radarr = startFakeRadarr({
    catalogue: [
      MATRIX,
      { ...MATRIX_RELOADED, digitalRelease: '2026-12-03T00:00:00Z' },
      { title: 'Dune: Part Three', year: 2026, tmdbId: 1170608, inCinemas: '2026-12-18T00:00:00Z' },
    ],
    library: [604, 1170608],
    queue: [{ tmdbId: 604, status: 'downloading', size: 4000, sizeleft: 1000, eta: '2026-12-01T02:00:00Z' }],
  })
  api = (await started({ url: radarr.url, apiKey: radarr.apiKey })).api
})
afterAll(async () => {
  for (const bot of bots) await bot.stop()
  radarr.stop()
})

describe('radarr rhiza', () => {
  it('conforms to the Rhiza contract', async () => {
    const failures = await rhizaChecks({
      name: 'radarr',
      manifest: files.manifest,
      module,
      config: { url: radarr.url, apiKey: radarr.apiKey },
      invalidConfig: { url: 'ftp://radarr', apiKey: '' },
      context: (await started({ url: radarr.url, apiKey: radarr.apiKey })).context,
    })
    expect(failures).toEqual([])
  })

  it('has the same keys in English and French', () => {
    expect(files.keysOf('fr')).toEqual(files.keysOf('en'))
  })

  it('sends its key on every call and reads the status for its health', async () => {
    const rhiza = await started({ url: radarr.url, apiKey: radarr.apiKey })
    expect(await rhiza.health()).toMatchObject({ state: 'healthy', detail: 'Radarr 5.14.0.9383' })
    expect(radarr.asked.at(-1)).toMatchObject({ path: '/api/v3/system/status', apiKey: radarr.apiKey })
  })

  it('looks movies up, telling apart what the library already holds', async () => {
    const found = await api.lookup('matrix')
    expect(found.map((movie) => [movie.title, movie.year, movie.tmdbId, movie.inLibrary])).toEqual([
      ['The Matrix', 1999, 603, false],
      ['The Matrix Reloaded', 2003, 604, true],
    ])
    expect(radarr.asked.at(-1)?.query).toEqual({ term: 'matrix' })
  })

  it('adds by TMDb id with Radarr’s first profile and folder, and refuses a second add or an unknown id', async () => {
    expect(await api.add(603)).toMatchObject({ ok: true, value: { title: 'The Matrix', inLibrary: true } })
    expect(radarr.added.at(-1)).toMatchObject({
      tmdbId: 603,
      title: 'The Matrix',
      qualityProfileId: 4,
      rootFolderPath: '/movies',
      monitored: true,
      minimumAvailability: 'released',
      addOptions: { searchForMovie: true },
    })
    expect(await api.add(604)).toEqual({
      ok: false,
      refusal: { domain: 'radarr', key: 'refusal.exists', params: { title: 'The Matrix Reloaded' } },
    })
    expect(await api.add(999)).toEqual({
      ok: false,
      refusal: { domain: 'radarr', key: 'refusal.unknownMovie', params: { id: 999 } },
    })
  })

  it('reads the calendar for a window and the queue with its progress', async () => {
    const start = new Date('2026-12-01T00:00:00Z')
    const week = await api.calendar({ start, end: new Date('2026-12-08T00:00:00Z') })
    expect(week.map((movie) => [movie.title, movie.releases])).toEqual([
      ['The Matrix Reloaded', { digital: '2026-12-03T00:00:00Z' }],
    ])
    expect(radarr.asked.at(-1)?.query).toEqual({
      start: '2026-12-01T00:00:00.000Z',
      end: '2026-12-08T00:00:00.000Z',
      unmonitored: 'false',
    })
    expect(await api.queue()).toEqual([
      {
        title: 'The Matrix Reloaded',
        status: 'downloading',
        progress: 0.75,
        estimatedCompletion: '2026-12-01T02:00:00Z',
      },
    ])
  })

  // A consumer awaits every api member: across a host each one answers a promise (septum README).
  it('words its faults in its own domain and reports them as health', async () => {
    const wrongKey = await started({ url: radarr.url, apiKey: 'not-the-key' })
    const refused = await wrongKey.api.lookup('x').catch((error: unknown) => error)
    expect(await wrongKey.api.faultOf(refused)).toEqual({
      domain: 'radarr',
      key: 'fault.unauthorized',
      params: {},
    })
    expect(await wrongKey.health()).toMatchObject({ state: 'degraded' })

    radarr.failWith(500)
    try {
      const broken = await api.queue().catch((error: unknown) => error)
      expect(await api.faultOf(broken)).toMatchObject({ key: 'fault.status', params: { status: 500 } })
    } finally {
      radarr.failWith(undefined)
    }
    expect(await api.faultOf(new Error('anything else'))).toBeUndefined()
  })

  it('gives up on a Radarr that does not answer in time, and on one that is not there', async () => {
    const t = files.translator('fr')
    radarr.delay(1500)
    try {
      const slow = await started({ url: radarr.url, apiKey: radarr.apiKey, timeoutSeconds: 1 })
      const late = await slow.api.status().catch((error: unknown) => error)
      expect(t((await slow.api.faultOf(late))!)).toBe('Radarr n’a pas répondu en 1 seconde.')
      expect(await slow.health()).toMatchObject({ state: 'unreachable' })
    } finally {
      radarr.delay(0)
    }
    const gone = startFakeRadarr({ catalogue: [] })
    await gone.stop()
    const nowhere = await started({ url: gone.url, apiKey: 'k' })
    const missing = await nowhere.api.status().catch((error: unknown) => error)
    expect(t((await nowhere.api.faultOf(missing))!)).toBe(`Radarr est injoignable à ${gone.url}.`)
    expect(await nowhere.health()).toMatchObject({ state: 'unreachable' })
  })

  it('keeps its key a secret and names a bad setting', () => {
    const bad = module.configSchema.safeParse({ url: 'not a url', apiKey: 'k', timeoutSeconds: 600 })
    expect(bad.success ? [] : bad.error.issues.map((issue) => issue.path.join('.'))).toEqual([
      'url',
      'timeoutSeconds',
    ])
    expect(module.configSchema.secrets).toEqual(['apiKey'])
  })
})
