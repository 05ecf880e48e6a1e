// Supervision through the real core: the homeserver goes away while the bot runs (every call
// refused) or answers 5xx, the channel says so in health and the log with its reason, tries again
// with a doubling wait, and answers again once the homeserver is back — with what was said meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type CoreWith, startCoreWith } from '../../../../core/test/support/boot-core.ts'
import { HELP, HELP_LINE, healthOf, loggedSince } from '../../kit/in-core.ts'
import { type FakeMatrix, startFakeMatrix } from './fake/index.ts'

const MATRIX = join(import.meta.dir, '..')

let fake: FakeMatrix
let core: CoreWith

beforeAll(async () => {
  fake = startFakeMatrix()
  core = await startCoreWith({
    sporeFolders: [MATRIX, HELP],
    settings: {
      matrix: { homeserverUrl: fake.homeserverUrl, accessToken: fake.token, acceptInvites: 'none' },
    },
    roles: { reader: ['help.*'] },
    grants: [{ channel: 'matrix', externalId: fake.world.alice.userId, roles: ['reader'] }],
  })
  // The first sync ever is history, never answered: the test speaks once it is done.
  await core.waitForLog('matrix: syncing')
})

afterAll(async () => {
  await core?.stop()
  await fake?.stop()
})

const matrixHealth = () => healthOf(core, 'matrix')

/** The retries the hypha logged since `mark`, once there are `count`: each with its attempt and wait. */
const retriesAfter = (mark: number, count: number) =>
  loggedSince(core, { mark, count, prefix: 'Matrix sync failed' })

async function answered(mark: number): Promise<void> {
  await fake.server.sent.waitFor(
    (sent) =>
      fake.server.sent.entries.indexOf(sent) >= mark && String(sent.event.content.body).includes(HELP_LINE),
    15_000,
  )
}

describe('the matrix spore in the real core, when the homeserver goes away and comes back', () => {
  it('is unreachable with its reason while away, retries with a doubling wait, and answers again once back', async () => {
    expect((await matrixHealth())?.state).toBe('healthy')
    const mark = core.logs().length
    await fake.away()
    const retries = await retriesAfter(mark, 2)
    expect(retries.map((line) => [line.attempt, line.retryInMs])).toEqual([
      [1, 1_000],
      [2, 2_000],
    ])
    expect(String(retries[0]?.msg)).toContain('(network error:')
    const away = await matrixHealth()
    expect(away?.state).toBe('unreachable')
    expect(away?.detail).toContain('Matrix sync failed (network error:')
    const reported = core.running.report().find((line) => line.name === 'matrix')
    expect(reported?.state).toBe('dormant')
    expect(reported?.reason).toMatch(
      /^reconnecting \(attempt 2, next in 2 s\): Matrix sync failed \(network error:/,
    )

    // Said while the homeserver was unreachable from the bot: the next sync hands it over.
    const sentMark = fake.server.sent.entries.length
    fake.say(fake.world.directRoom, fake.world.alice, '/help')
    fake.back()
    await answered(sentMark)
    expect(
      core
        .logs()
        .slice(mark)
        .map((line) => line.msg),
    ).toContain('matrix: syncing')
    expect((await matrixHealth())?.state).toBe('healthy')
    expect(core.running.report().find((line) => line.name === 'matrix')?.state).toBe('live')
  })

  it('is unreachable while the homeserver answers 5xx, retries with a doubling wait, and hears what waited', async () => {
    const mark = core.logs().length
    const sentMark = fake.server.sent.entries.length
    fake.server.inject('/sync', 502, { errcode: 'M_UNKNOWN', error: 'Bad Gateway' }, 2)
    // Ends the sync under way; the next two answer 502.
    fake.server.changed()
    const [first] = await retriesAfter(mark, 1)
    expect(first?.attempt).toBe(1)
    const failing = await matrixHealth()
    expect(failing?.state).toBe('unreachable')
    expect(failing?.detail).toContain('Matrix sync failed (M_UNKNOWN: Bad Gateway)')
    fake.say(fake.world.directRoom, fake.world.alice, '/help')
    await answered(sentMark)
    expect((await retriesAfter(mark, 2)).map((line) => [line.attempt, line.retryInMs])).toEqual([
      [1, 1_000],
      [2, 2_000],
    ])
    expect((await matrixHealth())?.state).toBe('healthy')
  })
})
