// Connecting and staying connected: a refused token, an unreachable homeserver, a failing /sync
// retried with backoff and M_LIMIT_EXCEEDED honoured, and a token revoked while running.
import { afterEach, describe, expect, it } from 'bun:test'
import { MatrixHypha } from '../src/hypha.ts'
import { type FakeMatrix, startFakeMatrix } from './fake/index.ts'
import { connectedRig, hyphaContext, newRecords, type Rig, settingsFor } from './harness.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function rigOn(): Promise<{ fake: FakeMatrix; rig: Rig }> {
  const fake = startFakeMatrix()
  cleanups.push(() => fake.stop())
  const rig = await connectedRig({ fake })
  cleanups.push(() => rig.stop())
  return { fake, rig }
}

const settings = (homeserverUrl: string, accessToken: string) =>
  settingsFor({ homeserverUrl, accessToken, acceptInvites: 'none' })

describe('connecting', () => {
  it('refuses a token the homeserver does not know, saying how to get one', async () => {
    const fake = startFakeMatrix()
    cleanups.push(() => fake.stop())
    const connecting = new MatrixHypha().connect(
      hyphaContext(settings(fake.homeserverUrl, 'syt_wrong'), newRecords()),
    )
    await expect(connecting).rejects.toThrow(
      'The homeserver rejected the access token (M_UNKNOWN_TOKEN: Invalid access token passed.)',
    )
    await expect(connecting).rejects.toThrow('Settings → Help & About → Access Token')
  })

  it('says the homeserver cannot be reached when nothing answers, naming it', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
    const url = `http://127.0.0.1:${closed.port}`
    await closed.stop(true)
    const connecting = new MatrixHypha().connect(hyphaContext(settings(url, 'syt_any'), newRecords()))
    await expect(connecting).rejects.toThrow('The homeserver could not be reached (network error')
    await expect(connecting).rejects.toThrow(`check that this machine reaches ${url}`)
  })
})

describe('staying connected', () => {
  it('reports a failing sync with each attempt and its wait, then up again, and hears what waited', async () => {
    const { fake, rig } = await rigOn()
    fake.server.inject('/sync', 502, { errcode: 'M_UNKNOWN', error: 'Bad Gateway' }, 2)
    // The sync under way answers empty; the next two fail.
    fake.server.changed()
    await rig.reports.waitFor((report) => report.kind === 'lost')
    const event = fake.say(fake.world.directRoom, fake.world.alice, 'while the homeserver hiccups')
    await rig.emitted.waitFor((m) => m.messageId === event.event_id, 10_000)
    const lost = rig.reports.entries.filter((report) => report.kind === 'lost')
    expect(lost.map((report) => report.retry?.attempt)).toEqual([1, 2])
    expect(lost.map((report) => report.retry?.inMs)).toEqual([50, 100])
    expect(lost[0]?.reason).toBe('Matrix sync failed (M_UNKNOWN: Bad Gateway); trying again in 1 s.')
    expect(rig.reports.entries.at(-1)?.kind).toBe('up')
    expect((await rig.hypha.health()).state).toBe('healthy')
  })

  it('waits the retry_after_ms of M_LIMIT_EXCEEDED on /sync', async () => {
    const { fake, rig } = await rigOn()
    fake.server.inject('/sync', 429, {
      errcode: 'M_LIMIT_EXCEEDED',
      error: 'Too Many Requests',
      retry_after_ms: 700,
    })
    fake.say(fake.world.directRoom, fake.world.alice, 'wake the sync')
    const lost = await rig.reports.waitFor((report) => report.kind === 'lost', 10_000)
    expect(lost.retry?.inMs).toBe(700)
    expect((await rig.hypha.health()).detail).toContain('M_LIMIT_EXCEEDED')
  })

  it('hands a token revoked while running to the core, without retrying by itself', async () => {
    const { fake, rig } = await rigOn()
    fake.server.inject('/sync', 401, { errcode: 'M_UNKNOWN_TOKEN', error: 'Token revoked' })
    fake.say(fake.world.directRoom, fake.world.alice, 'wake the sync')
    const lost = await rig.reports.waitFor((report) => report.kind === 'lost', 10_000)
    expect(lost.retry).toBeUndefined()
    expect(lost.reason).toStartWith(
      'The homeserver rejected the access token (M_UNKNOWN_TOKEN: Token revoked)',
    )
    expect(await rig.hypha.health()).toMatchObject({ state: 'unreachable', detail: lost.reason })
  })
})
