// The official sporangium the way an operator meets it: every official spore packed with the
// author's tool (a key generated here, never a committed one) into the index layout, served on
// loopback, added as a source from chat, each spore installed, enabled and used through the real core.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sporangiumIndexSchema } from '@mycelo/septum'
import { runTool } from '../../../core/test/sporangia-tool/tool.ts'
import { type IndexServer, serveIndex } from '../../../core/test/support/index-server.ts'
import { realSpore } from '../../../core/test/support/real-spores.ts'
import { startTestCore, type TestCore } from '../../../core/test/support/runtime.ts'
import { type FakeMatrix, startFakeMatrix } from '../matrix/test/fake/index.ts'
import { type FakeRadarr, MATRIX, startFakeRadarr } from '../radarr/test/fake-radarr.ts'
import { type FakeTelegram, startFakeTelegram } from '../telegram/test/fake/index.ts'
import { OFFICIAL_SPORES } from './official-spores.ts'

/** Real processes and real HTTP on a shared machine: generous, never a measure. */
const PROCESS_TIMEOUT = 120_000
const OFFICIAL = join(import.meta.dir, '..')

let core: TestCore
let server: IndexServer
let radarr: FakeRadarr
let telegram: FakeTelegram
let matrix: FakeMatrix
let publicKey: string

beforeAll(async () => {
  radarr = startFakeRadarr({ catalogue: [MATRIX] })
  telegram = startFakeTelegram()
  matrix = startFakeMatrix()
  core = await startTestCore({
    spores: { admin: realSpore('admin') },
    config: 'sporangia: { allowLoopbackHttp: true }\n',
  })
  const key = join(core.folder, 'official.pem')
  const index = join(core.folder, 'index')
  const keygen = await runTool(['keygen', key])
  expect(keygen.code).toBe(0)
  publicKey = keygen.stdout.match(/Public key: (\S+)/)?.[1] ?? ''
  for (const spore of OFFICIAL_SPORES) {
    const packed = await runTool([
      'pack',
      join(OFFICIAL, spore),
      '--out',
      index,
      '--key',
      key,
      '--name',
      'Mycelo official spores',
    ])
    expect({ spore, code: packed.code, stderr: packed.stderr }).toEqual({ spore, code: 0, stderr: '' })
  }
  const verified = await runTool(['verify', index])
  expect(verified.code).toBe(0)
  server = await serveIndex(index)
}, PROCESS_TIMEOUT)
afterAll(async () => {
  await server?.stop()
  await core?.stop()
  await radarr?.stop()
  await telegram?.stop()
  await matrix?.stop()
})

const one = async (text: string) => (await core.ask(text)).join('\n')

describe('the official index', () => {
  it('names every official spore, each signed by the publisher it announces', () => {
    const index = sporangiumIndexSchema.parse(
      JSON.parse(readFileSync(join(core.folder, 'index', 'index.json'), 'utf8')),
    )
    expect(index.name).toBe('Mycelo official spores')
    expect(index.publisher?.key).toBe(publicKey)
    expect(Object.keys(index.spores).sort()).toEqual([...OFFICIAL_SPORES].sort())
    for (const spore of Object.values(index.spores))
      for (const strain of Object.values(spore.strains)) expect(strain.signature).toBeString()
  })

  it(
    'is added from chat, pinning its key, and offers every official spore',
    async () => {
      expect(await one(`/source-add ${server.url} Official mirror`)).toContain('official-mirror')
      const offered = await one('/offered official-mirror')
      for (const spore of OFFICIAL_SPORES) expect(offered).toContain(`${spore} (`)
      // Pinned on first sight: every later strain must verify with this key.
      expect(await one('/sources')).toContain(`publisher key ${publicKey}`)
    },
    PROCESS_TIMEOUT,
  )

  it(
    'installs radarr and movies, which answer from chat once set and enabled',
    async () => {
      for (const spore of ['radarr', 'movies'])
        expect(await one(`/install official-mirror ${spore}`)).toContain(`${spore} 1.0.0 is installed`)
      expect(await one(`/set radarr url ${radarr.url}`)).not.toContain('Usage')
      expect(await one(`/set radarr apiKey ${radarr.apiKey}`)).not.toContain('Usage')
      expect(await one('/enable radarr')).toBe('radarr is enabled and live.')
      expect(await one('/enable movies')).toBe('movies is enabled and live.')
      expect(await one('/movie matrix')).toBe('One movie for “matrix”:\n• The Matrix (1999) — /movie add 603')
      expect(await one('/movie add 603')).toBe('The Matrix (1999) is added to Radarr.')
      expect(radarr.added.map((body) => body.tmdbId)).toEqual([603])
    },
    PROCESS_TIMEOUT,
  )

  it(
    'installs reminders, which keeps and says a reminder through the core’s own storage and scheduler',
    async () => {
      expect(await one('/install official-mirror reminders')).toContain('reminders 1.0.0 is installed')
      expect(await one('/enable reminders')).toBe('reminders is enabled and live.')
      expect(await one('/timezone Europe/Paris')).toStartWith('Your reminders now use Europe/Paris')
      expect(await one('/remind in 1s water the plants')).toStartWith('I will remind you on ')
      const deadline = Date.now() + 15_000
      while (!core.sent.some((sent) => sent.content.text === '⏰ water the plants')) {
        if (Date.now() > deadline) throw new Error('the reminder was never said')
        await Bun.sleep(25)
      }
      expect(await one('/reminders')).toBe('You have no reminders.')
    },
    PROCESS_TIMEOUT,
  )

  it(
    'installs telegram, whose bundled grammY connects once the token is set, and answers a private chat',
    async () => {
      expect(await one('/install official-mirror telegram')).toContain('telegram 1.0.0 is installed')
      expect(await one(`/set telegram token ${telegram.token}`)).not.toContain('Usage')
      expect(await one(`/set telegram apiRoot ${telegram.apiRoot}`)).not.toContain('Usage')
      expect(await one('/enable telegram')).toBe('telegram is enabled and live.')
      const asked = telegram.say({ from: telegram.world.alice, text: '/sources' })
      const answer = await telegram.api.sent.waitFor((m) => m.chat.id === asked.chat.id, 15_000)
      expect('text' in answer && typeof answer.text === 'string').toBe(true)
    },
    PROCESS_TIMEOUT,
  )

  it(
    'installs matrix, whose bundled matrix-js-sdk syncs once the token is set',
    async () => {
      expect(await one('/install official-mirror matrix')).toContain('matrix 1.0.0 is installed')
      expect(await one(`/set matrix homeserverUrl ${matrix.homeserverUrl}`)).not.toContain('Usage')
      expect(await one(`/set matrix accessToken ${matrix.token}`)).not.toContain('Usage')
      expect(await one('/set matrix acceptInvites none')).not.toContain('Usage')
      expect(await one('/enable matrix')).toBe('matrix is enabled and live.')
      const deadline = Date.now() + 15_000
      while (
        !matrix.server.calls.entries.some((call) => call.path.endsWith('/sync') && call.status === 200)
      ) {
        if (Date.now() > deadline) throw new Error('the installed matrix spore never synced')
        await Bun.sleep(25)
      }
    },
    PROCESS_TIMEOUT,
  )
})
