// Connecting and staying connected: a refused token, an unreachable Telegram, polling that fails
// and comes back (with backoff, retry_after and the reports the core reads), a second reader, a
// token revoked while running, and a webhook left from before.
import { afterEach, describe, expect, it } from 'bun:test'
import { TelegramHypha } from '../src/hypha.ts'
import { type FakeTelegram, startFakeTelegram } from './fake/index.ts'
import { connectedRig, hyphaContext, newRecords, type Rig, settingsFor } from './harness.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function fakeTelegram(): FakeTelegram {
  const fake = startFakeTelegram()
  cleanups.push(() => fake.stop())
  return fake
}

async function rigOn(fake: FakeTelegram, settings: Record<string, unknown> = {}): Promise<Rig> {
  const rig = await connectedRig({ fake, settings })
  cleanups.push(() => rig.stop())
  return rig
}

describe('connecting', () => {
  it('refuses a token Telegram rejects, saying how to get the right one', async () => {
    const fake = fakeTelegram()
    const config = settingsFor({
      token: '700000001:AAWrongTokenWrongTokenWrongToken_xx',
      apiRoot: fake.apiRoot,
    })
    const hypha = new TelegramHypha()
    const connecting = hypha.connect(hyphaContext(config, newRecords()))
    await expect(connecting).rejects.toThrow('Telegram rejected the bot token (401 Unauthorized)')
    await expect(connecting).rejects.toThrow('@BotFather send /mybots')
    expect((await hypha.health()).state).toBe('unreachable')
  })

  it('says Telegram cannot be reached when nothing answers, naming where it looked', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
    const apiRoot = `http://127.0.0.1:${closed.port}`
    await closed.stop(true)
    const config = settingsFor({
      token: '700000001:AAFakeTokenForTheLoopbackTelegram_xyz',
      apiRoot,
    })
    const connecting = new TelegramHypha().connect(hyphaContext(config, newRecords()))
    await expect(connecting).rejects.toThrow('Telegram could not be reached (network error')
    await expect(connecting).rejects.toThrow(`check that this machine reaches ${apiRoot}`)
  })

  it('removes a webhook left from before, since polling cannot work beside one', async () => {
    const fake = fakeTelegram()
    const api = await fetch(`${fake.apiRoot}/bot${fake.token}/setWebhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://old.example.org/hook' }),
    })
    expect(api.status).toBe(200)
    const rig = await rigOn(fake)
    expect(fake.api.webhook).toBeUndefined()
    await rig.logs.waitFor((line) => line.message === 'telegram: removed the webhook to poll instead')
    const sent = fake.say({ from: fake.world.alice, text: 'polled' })
    await rig.emitted.waitFor((m) => m.messageId === String(sent.message_id))
  })
})

describe('staying connected', () => {
  it('reports a failing poll with each attempt and its wait, then up again, and hears what waited', async () => {
    const fake = fakeTelegram()
    const rig = await rigOn(fake)
    await rig.reports.waitFor((report) => report.kind === 'up')
    fake.api.inject('getUpdates', { error_code: 502, description: 'Bad Gateway' }, 2)
    const sent = fake.say({ from: fake.world.alice, text: 'while Telegram hiccups' })
    await rig.emitted.waitFor((m) => m.messageId === String(sent.message_id), 10_000)
    const lost = rig.reports.entries.filter((report) => report.kind === 'lost')
    expect(lost.map((report) => report.retry?.attempt)).toEqual([1, 2])
    // Doubling from the test's 50 ms.
    expect(lost.map((report) => report.retry?.inMs)).toEqual([50, 100])
    expect(lost[0]?.reason).toBe(
      'Telegram’s updates could not be fetched (502 Bad Gateway); trying again in 1 s.',
    )
    expect(rig.reports.entries.at(-1)?.kind).toBe('up')
    expect((await rig.hypha.health()).state).toBe('healthy')
  })

  it('waits the retry_after Telegram asks of a poll', async () => {
    const fake = fakeTelegram()
    const rig = await rigOn(fake)
    fake.api.inject('getUpdates', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      parameters: { retry_after: 1 },
    })
    const lost = await rig.reports.waitFor((report) => report.kind === 'lost', 10_000)
    expect(lost.retry?.inMs).toBe(1_000)
    const health = await rig.hypha.health()
    expect(health.state).toBe('unreachable')
    expect(health.detail).toContain('429 Too Many Requests')
  })

  it('names a second reader of the same bot (409), and keeps trying', async () => {
    const fake = fakeTelegram()
    const rig = await rigOn(fake)
    fake.api.inject('getUpdates', {
      error_code: 409,
      description:
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    })
    const lost = await rig.reports.waitFor((report) => report.kind === 'lost', 10_000)
    expect(lost.reason).toStartWith(
      'Another program is reading this bot’s updates (Telegram answered: 409 Conflict',
    )
    expect(lost.retry?.attempt).toBe(1)
    await rig.reports.waitFor(
      (report) =>
        report.kind === 'up' && rig.reports.entries.indexOf(report) > rig.reports.entries.indexOf(lost),
      10_000,
    )
  })

  it('hands a token revoked while running to the core, without retrying by itself', async () => {
    const fake = fakeTelegram()
    const rig = await rigOn(fake)
    fake.api.inject('getUpdates', { error_code: 401, description: 'Unauthorized' })
    const lost = await rig.reports.waitFor((report) => report.kind === 'lost', 10_000)
    expect(lost.retry).toBeUndefined()
    expect(lost.reason).toStartWith('Telegram rejected the bot token (401 Unauthorized)')
    const health = await rig.hypha.health()
    expect(health).toMatchObject({ state: 'unreachable', detail: lost.reason })
    const polls = fake.api.calls.entries.filter((call) => call.method === 'getUpdates').length
    await Bun.sleep(300)
    expect(fake.api.calls.entries.filter((call) => call.method === 'getUpdates')).toHaveLength(polls)
  })
})
