// The test bot's world: who says a message (person, roles, group, locale), the rhizas a spore
// requires started through germination's checks, schedules on a clock the test moves, and storage
// in memory or in a SQLite file that a second bot finds again.
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DormantSporeError, type TestBotOptions, testBot } from '@mycelo/septum/testing'
import forecast from './fixtures/testing/forecast/src/index.ts'
import weather from './fixtures/testing/weather/src/index.ts'

const FIXTURES = join(import.meta.dir, 'fixtures', 'testing')
const service = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (request) => {
    const city = new URL(request.url).searchParams.get('city')
    return Response.json(
      city === 'Nice' ? { condition: 'sunny', celsius: 24 } : { condition: 'rain', celsius: 12 },
    )
  },
})
const folder = mkdtempSync(join(tmpdir(), 'septum-test-bot-world-'))
afterAll(() => {
  service.stop(true)
  rmSync(folder, { recursive: true, force: true })
})

const family = { channel: 'console', conversationId: 'family' }
const options = (more: Partial<TestBotOptions> = {}): TestBotOptions => ({
  spore: {
    from: join(FIXTURES, 'forecast'),
    module: forecast,
    settings: { defaultCity: 'Nice', morningTo: family },
  },
  rhizas: {
    weather: { from: join(FIXTURES, 'weather'), module: weather, settings: { url: service.url.href } },
  },
  now: '2026-06-01T00:00:00Z',
  ...more,
})

describe('the test bot’s world', () => {
  it('says each message as the person, roles, group and locale given for it', async () => {
    const bot = await testBot(options())
    expect(await bot.say('/whoami')).toEqual(['alice (member) in a direct message'])
    expect(await bot.say('/whoami', { person: 'bob', roles: ['owner', 'member'], group: 'family' })).toEqual([
      'bob (owner, member) in the group family',
    ])
    expect(
      await bot.say('/whoami', { locale: 'fr', person: 'chloé', group: { id: 'g7', name: 'Les amis' } }),
    ).toEqual(['chloé (member) dans le groupe g7'])
    await bot.stop()
  })

  it('starts the rhizas a spore requires, with their settings checked, before it', async () => {
    const bot = await testBot(options())
    // forecast reaches weather's real api, which asks the service over HTTP.
    expect(await bot.say('/forecast')).toEqual(['Sunny in Nice, 24 °C (your first question)'])
    expect(await bot.say('/forecast Lyon', { locale: 'fr' })).toEqual([
      'Pluie à Lyon, 12 °C (vos 2 questions)',
    ])
    expect((await bot.health('weather')).state).toBe('healthy')
    await bot.stop()

    const noUrl = testBot(
      options({ rhizas: { weather: { from: join(FIXTURES, 'weather'), module: weather } } }),
    )
    await expect(noUrl).rejects.toBeInstanceOf(DormantSporeError)
    await expect(noUrl).rejects.toThrow(/^weather would be dormant: configuration is incomplete: url: /)
    await expect(testBot(options({ rhizas: {} }))).rejects.toThrow(
      "forecast would be dormant: it requires weather; pass it in the test bot's rhizas",
    )
  })

  it('runs the daily push when the clock passes its time, in the conversation’s language', async () => {
    const bot = await testBot(options())
    expect(await bot.clock.advance(4 * 60 * 60 * 1000)).toEqual([]) // 04:00 UTC: 06:00 in Paris
    bot.setConversationLocale(family, 'fr')
    const pushed = await bot.clock.advance(60 * 60 * 1000 + 1) // past 07:00 in Paris
    expect(pushed).toEqual([
      { spore: 'forecast', target: family, content: { text: 'Bonjour ! Ensoleillé à Nice.' } },
    ])
    expect(bot.clock.now().toISOString()).toBe('2026-06-01T05:00:00.001Z')
    bot.setConversationLocale(family, 'en')
    expect((await bot.clock.advance(24 * 60 * 60 * 1000)).map((push) => push.content.text)).toEqual([
      'Good morning! Sunny in Nice.',
    ])
    expect(bot.pushes).toHaveLength(2)
    await bot.stop()
  })

  it('keeps storage in memory by default: every bot starts empty and runs every migration', async () => {
    for (let round = 0; round < 2; round++) {
      const bot = await testBot(options())
      expect(bot.storageFile).toBeUndefined()
      expect(bot.storage().snapshot()).toEqual({ migrated: 1 })
      await bot.say('/forecast', { person: 'ada' })
      expect(bot.storage().snapshot()).toEqual({ migrated: 1, 'asks:ada': 1 })
      await bot.stop()
    }
  })

  it('keeps storage in a SQLite file when asked: a second bot finds it, migrations run once', async () => {
    const file = join(folder, 'bot.sqlite')
    const first = await testBot(options({ storage: { sqlite: file } }))
    expect(first.storageFile).toBe(file)
    expect(await first.say('/forecast', { person: 'ada' })).toEqual([
      'Sunny in Nice, 24 °C (your first question)',
    ])
    expect(first.storage('weather').snapshot()).toEqual({ started: 1 })
    await first.stop()
    expect(existsSync(file)).toBe(true)

    const second = await testBot(options({ storage: { sqlite: file } }))
    expect(await second.say('/forecast', { person: 'ada' })).toEqual([
      'Sunny in Nice, 24 °C (your 2 questions)',
    ])
    // Migration 1 is recorded in the file, so it did not run again; each spore has its own keys.
    expect(second.storage().snapshot()).toEqual({ migrated: 1, 'asks:ada': 2 })
    expect(second.storage('weather').snapshot()).toEqual({ started: 2 })
    expect(second.storage().bytes()).toBe(Buffer.byteLength('migrated1') + Buffer.byteLength('asks:ada2'))
    await expect(second.storage().transaction(async (tx) => tx.set('late', 1))).rejects.toThrow(
      'must not await',
    )
    expect(await second.storage().get('late')).toBeUndefined()
    await second.stop()

    const temporary = await testBot(options({ storage: 'sqlite' }))
    const made = temporary.storageFile!
    expect(made.startsWith(tmpdir())).toBe(true)
    expect(existsSync(made)).toBe(true)
    expect(temporary.storage().snapshot()).toEqual({ migrated: 1 })
    await temporary.stop()
    expect(existsSync(made)).toBe(false)
  })
})
