// radarr and movies inside the real core, against the loopback Radarr: the operator's settings in
// the real SQLite file, the rhiza's health on the mycelium, replies through the real bus.
import { afterAll, beforeAll, expect, it } from 'bun:test'
import { join } from 'node:path'
import { realSpore } from '../../../../core/test/support/real-spores.ts'
import { startTestCore, type TestCore } from '../../../../core/test/support/runtime.ts'
import { type FakeRadarr, MATRIX, MATRIX_RELOADED, startFakeRadarr } from '../../radarr/test/fake-radarr.ts'

const OFFICIAL = join(import.meta.dir, '..', '..')

let radarr: FakeRadarr
let core: TestCore
beforeAll(async () => {
  radarr = startFakeRadarr({ catalogue: [MATRIX, MATRIX_RELOADED], library: [604] })
  core = await startTestCore({
    spores: {
      radarr: realSpore(join(OFFICIAL, 'radarr')),
      movies: realSpore(join(OFFICIAL, 'movies')),
      admin: realSpore('admin'),
    },
    settings: { radarr: { url: radarr.url, apiKey: radarr.apiKey }, movies: { results: 1 } },
  })
})
afterAll(async () => {
  await core?.stop()
  await radarr?.stop()
})

it('searches, adds and refuses through the real bus, in the reader’s language', async () => {
  expect(core.germination.byName.get('movies')?.state).toBe('live')
  expect(await core.ask('/movie matrix')).toEqual([
    'One movie for “matrix”:\n• The Matrix (1999) — /movie add 603',
  ])
  expect(await core.ask('/movie add 603')).toEqual(['The Matrix (1999) is added to Radarr.'])
  expect(radarr.added.map((body) => body.tmdbId)).toEqual([603])
  await core.ask('/lang fr')
  expect(await core.ask('/movie add 604')).toEqual(['The Matrix Reloaded est déjà dans Radarr.'])
  expect(await core.ask('/upcoming 3')).toEqual([
    'Rien dans la bibliothèque ne sort dans les 3 prochains jours.',
  ])
})

it('reports Radarr’s health to the operator, and a fault to the reader', async () => {
  const health = (await core.ask('/health')).join('\n')
  expect(health).toContain('radarr')
  expect(health).toContain('Radarr 5.14.0.9383')
  radarr.failWith(503)
  try {
    expect(await core.ask('/movie dune')).toEqual(['Radarr a répondu par une erreur (HTTP 503).'])
  } finally {
    radarr.failWith(undefined)
  }
})
