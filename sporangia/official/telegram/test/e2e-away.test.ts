// Supervision through the real core: Telegram goes away while the bot runs (every call refused),
// the channel says so in health and the log with its reason, tries again with a doubling wait,
// and answers again once Telegram is back — with what was said meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { type CoreWith, startCoreWith } from '../../../../core/test/support/boot-core.ts'
import { HELP, HELP_LINE, healthOf, loggedSince } from '../../kit/in-core.ts'
import { type FakeTelegram, startFakeTelegram } from './fake/index.ts'

const TELEGRAM = join(import.meta.dir, '..')

let fake: FakeTelegram
let core: CoreWith

beforeAll(async () => {
  fake = startFakeTelegram()
  core = await startCoreWith({
    sporeFolders: [TELEGRAM, HELP],
    settings: { telegram: { token: fake.token, apiRoot: fake.apiRoot } },
    roles: { reader: ['help.*'] },
    grants: [{ channel: 'telegram', externalId: String(fake.world.alice.user.id), roles: ['reader'] }],
  })
  await core.waitForLog('telegram: polling for updates')
})

afterAll(async () => {
  await core?.stop()
  await fake?.stop()
})

const telegramHealth = () => healthOf(core, 'telegram')

/** The retries the hypha logged since `mark`, once there are `count`: each with its attempt and wait. */
const retriesAfter = (mark: number, count: number) =>
  loggedSince(core, { mark, count, prefix: 'Telegram’s updates could not be fetched' })

async function answered(text: string, mark: number): Promise<void> {
  await fake.api.sent.waitFor(
    (message) =>
      fake.api.sent.entries.indexOf(message) >= mark &&
      'text' in message &&
      String(message.text).includes(text),
    15_000,
  )
}

describe('the telegram spore in the real core, when Telegram goes away and comes back', () => {
  it('is unreachable with its reason while away, retries with a doubling wait, and answers again once back', async () => {
    expect((await telegramHealth())?.state).toBe('healthy')
    const mark = core.logs().length
    await fake.away()
    const retries = await retriesAfter(mark, 2)
    expect(retries.map((line) => line.attempt)).toEqual([1, 2])
    // The default backoff, doubling from a second.
    expect(retries.map((line) => line.retryInMs)).toEqual([1_000, 2_000])
    expect(String(retries[0]?.msg)).toContain('(network error:')
    const away = await telegramHealth()
    expect(away?.state).toBe('unreachable')
    expect(away?.detail).toContain('Telegram’s updates could not be fetched (network error:')
    const reported = core.running.report().find((line) => line.name === 'telegram')
    expect(reported?.state).toBe('dormant')
    expect(reported?.reason).toMatch(
      /^reconnecting \(attempt 2, next in 2 s\): Telegram’s updates could not be fetched \(network error: ECONNREFUSED/,
    )

    // Said while Telegram was away: Telegram keeps it, and the bot hears it once back.
    const sentMark = fake.api.sent.entries.length
    fake.say({ from: fake.world.alice, text: '/help' })
    fake.back()
    await answered(HELP_LINE, sentMark)
    expect(
      core
        .logs()
        .slice(mark)
        .map((line) => line.msg),
    ).toContain('telegram: polling for updates')
    expect((await telegramHealth())?.state).toBe('healthy')
    expect(core.running.report().find((line) => line.name === 'telegram')?.state).toBe('live')
  })

  it('is unreachable while Telegram answers 5xx, retries with a doubling wait, and hears what waited', async () => {
    const mark = core.logs().length
    const sentMark = fake.api.sent.entries.length
    fake.api.inject('getUpdates', { error_code: 502, description: 'Bad Gateway' }, 2)
    // Ends the poll under way; the next two answer 502.
    fake.say({ from: fake.world.bob, text: 'hello' })
    const [first] = await retriesAfter(mark, 1)
    expect(first?.attempt).toBe(1)
    const failing = await telegramHealth()
    expect(failing?.state).toBe('unreachable')
    expect(failing?.detail).toContain('Telegram’s updates could not be fetched (502 Bad Gateway)')
    fake.say({ from: fake.world.alice, text: '/help' })
    await answered(HELP_LINE, sentMark)
    const retries = await retriesAfter(mark, 2)
    expect(retries.map((line) => [line.attempt, line.retryInMs])).toEqual([
      [1, 1_000],
      [2, 2_000],
    ])
    expect((await telegramHealth())?.state).toBe('healthy')
  })
})
