import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { enzymeChecks } from '@mycelo/septum/conformance'
import type { TestBot } from '@mycelo/septum/testing'
import { type FakeRadarr, MATRIX, MATRIX_RELOADED, startFakeRadarr } from '../../radarr/test/fake-radarr.ts'
import module from '../src/index.ts'
import { files, moviesBot } from './harness.ts'

const DAY = 24 * 60 * 60 * 1000
/** A calendar day `n` days from now, as Radarr sends release dates: UTC midnight. */
const dayFromNow = (n: number) => `${new Date(Date.now() + n * DAY).toISOString().slice(0, 10)}T00:00:00Z`
const inWords = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(iso))

const DIGITAL = dayFromNow(3)
const CINEMAS = dayFromNow(2)
const LATER = dayFromNow(20)

let radarr: FakeRadarr
let bot: TestBot
beforeAll(async () => {
  radarr = startFakeRadarr({
    catalogue: [
      MATRIX,
      { ...MATRIX_RELOADED, digitalRelease: DIGITAL },
      { title: 'Dune: Part Three', year: 2026, tmdbId: 1170608, inCinemas: CINEMAS, physicalRelease: LATER },
    ],
    library: [604, 1170608],
  })
  bot = await moviesBot(radarr)
})
afterAll(async () => {
  await bot.stop()
  radarr.stop()
})

async function say(command: 'movie' | 'upcoming', rest: string, locale = 'en', on = bot) {
  return (await on.say(`/${command} ${rest}`, { locale })).join('\n---\n')
}

describe('movies enzyme', () => {
  it('conforms to the Enzyme contract, catalogues included', async () => {
    const failures = await enzymeChecks({
      name: 'movies',
      manifest: files.manifest,
      module,
      catalogs: files.catalogs,
      config: { results: 3 },
      invalidConfig: { results: 0 },
      context: () => bot.context(),
    })
    expect(failures).toEqual([])
  })

  it('has the same keys in English and French', () => {
    expect(files.keysOf('fr')).toEqual(files.keysOf('en'))
  })

  it('lists what a search finds, with the command that adds each', async () => {
    expect(await say('movie', 'matrix')).toBe(
      [
        '2 movies for “matrix”:',
        '• The Matrix (1999) — /movie add 603',
        '• The Matrix Reloaded (2003) — already in Radarr',
      ].join('\n'),
    )
    expect(await say('movie', 'matrix', 'fr')).toBe(
      [
        '2 films pour « matrix » :',
        '• The Matrix (1999) — /movie add 603',
        '• The Matrix Reloaded (2003) — déjà dans Radarr',
      ].join('\n'),
    )
    expect(await say('movie', 'nothing like it')).toBe('No movie matches “nothing like it”.')
  })

  it('adds by id, and says why it cannot', async () => {
    expect(await say('movie', 'add 603')).toBe('The Matrix (1999) is added to Radarr.')
    expect(await say('movie', 'add 603', 'fr')).toBe('The Matrix est déjà dans Radarr.')
    expect(await say('movie', 'add 42')).toBe('No movie has the TMDb id 42.')
    expect(await say('movie', 'add the matrix')).toBe(
      'Usage: /movie add <TMDb id> (the number a search shows)',
    )
  })

  it('answers its usage on an empty or wrong bag, in the reader’s language', async () => {
    expect(await say('movie', '')).toBe('Usage: /movie <title> to search, or /movie add <TMDb id> to add')
    expect(await say('upcoming', 'soon', 'fr')).toBe(
      'Utilisation : /upcoming [jours], un nombre entier de 1 à 90',
    )
    expect(await say('upcoming', '91')).toBe('Usage: /upcoming [days], a whole number from 1 to 90')
  })

  it('lists the coming releases soonest first, each day in the reader’s locale', async () => {
    expect(await say('upcoming', '')).toBe(
      [
        'Coming out in the next 7 days:',
        `• ${inWords(CINEMAS, 'en')} — Dune: Part Three (2026), in cinemas`,
        `• ${inWords(DIGITAL, 'en')} — The Matrix Reloaded (2003), digital release`,
      ].join('\n'),
    )
    const french = await say('upcoming', '30', 'fr')
    expect(french.split('\n')).toEqual([
      'Sorties des 30 prochains jours :',
      `• ${inWords(CINEMAS, 'fr')} — Dune: Part Three (2026), au cinéma`,
      `• ${inWords(DIGITAL, 'fr')} — The Matrix Reloaded (2003), en numérique`,
      `• ${inWords(LATER, 'fr')} — Dune: Part Three (2026), en DVD/Blu-ray`,
    ])
    expect(french).toMatch(/(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)/)
    expect(await say('upcoming', '1')).toBe('Nothing in the library comes out in the next day.')
  })

  it('words a Radarr fault from the radarr domain, in the reader’s language', async () => {
    const wrongKey = await moviesBot({ url: radarr.url, apiKey: 'wrong' })
    try {
      expect(await say('movie', 'matrix', 'fr', wrongKey)).toBe(
        'Radarr a refusé la clé d’API ; vérifiez le réglage apiKey du spore radarr.',
      )
    } finally {
      await wrongKey.stop()
    }
  })
})
