import { describe, expect, it } from 'bun:test'
import type { IncomingMessage } from '@mycelo/septum'
import { inhibitorChecks } from '@mycelo/septum/conformance'
import { bucketKey, isSpent, refilled, take } from '../src/bucket.ts'
import module from '../src/index.ts'
import { files, floodBot } from './harness.ts'

const RULE = { capacity: 3, windowMs: 60_000 }

const from = (externalId: string, group?: string): IncomingMessage => ({
  channel: 'signal',
  conversationId: group ?? `dm-${externalId}`,
  messageId: 'm',
  sender: { channel: 'signal', externalId },
  text: 'hello',
  attachments: [],
  raw: null,
  receivedAt: new Date(),
  ...(group !== undefined && { group: { id: group } }),
})

describe('the token bucket', () => {
  it('lets a new sender spend the whole capacity at once, then refuses', () => {
    let bucket = take(undefined, 0, RULE)
    expect(bucket).toMatchObject({ allowed: true, bucket: { tokens: 2 } })
    bucket = take(bucket.bucket, 0, RULE)
    bucket = take(bucket.bucket, 0, RULE)
    expect(bucket.allowed).toBe(true)
    expect(take(bucket.bucket, 0, RULE)).toMatchObject({ allowed: false, warn: true })
  })

  it('refills evenly over the window and never past the capacity', () => {
    expect(refilled({ tokens: 0, at: 0 }, 20_000, RULE).tokens).toBe(1)
    expect(refilled({ tokens: 0, at: 0 }, 600_000, RULE).tokens).toBe(3)
    expect(refilled({ tokens: 1, at: 10_000 }, 5_000, RULE).tokens).toBe(1)
  })

  it('warns once per window, however many messages are refused', () => {
    const empty = { tokens: 0, at: 0 }
    const first = take(empty, 1_000, RULE)
    expect(first).toMatchObject({ allowed: false, warn: true, bucket: { warnedAt: 1_000 } })
    const again = take({ ...first.bucket, tokens: 0 }, 2_000, RULE)
    expect(again).toMatchObject({ allowed: false, warn: false })
    expect(take({ tokens: 0, at: 61_000, warnedAt: 1_000 }, 61_000, RULE).warn).toBe(true)
  })

  it('knows a bucket that a fresh one would equal', () => {
    expect(isSpent({ tokens: 0, at: 0 }, 60_000, RULE)).toBe(true)
    expect(isSpent({ tokens: 0, at: 0 }, 30_000, RULE)).toBe(false)
    expect(isSpent({ tokens: 3, at: 0, warnedAt: 59_000 }, 60_000, RULE)).toBe(false)
  })
})

describe('flood-gate', () => {
  it('conforms to the Inhibitor contract', async () => {
    const config = { messages: 1, windowSeconds: 60, exempt: ['signal:carol'] }
    const { bot } = await floodBot(config)
    const failures = await inhibitorChecks({
      name: 'flood-gate',
      manifest: files.manifest,
      module,
      config,
      invalidConfig: { messages: 0, exempt: ['no channel'] },
      context: bot.inhibitorContext,
      expectations: [
        { label: 'a first message', message: from('alice'), allow: true },
        { label: 'one too many', message: from('alice'), allow: false },
        { label: 'another sender', message: from('bob'), allow: true },
        { label: 'an exempt sender', message: from('carol'), allow: true },
        { label: 'an exempt sender again', message: from('carol'), allow: true },
      ],
    })
    expect(failures).toEqual([])
    expect(Object.keys(bot.storage().snapshot()).sort()).toEqual([
      bucketKey('signal', 'alice'),
      bucketKey('signal', 'bob'),
    ])
  })

  it('has the same keys in English and French', () => {
    expect(files.keysOf('fr')).toEqual(files.keysOf('en'))
  })

  it('tells a sender once, in a direct conversation only, and always logs it', async () => {
    const { bot, told } = await floodBot({ messages: 1, windowSeconds: 30 }, 'fr')
    const alice = { person: 'alice', channel: 'signal' }
    expect((await bot.inspect('hello', alice)).allow).toBe(true)
    expect(await bot.inspect('hello', alice)).toEqual({
      allow: false,
      reason: 'alice sur signal a envoyé plus de un message en 30 secondes',
    })
    expect(await bot.say('/help', alice)).toEqual([])
    expect(told).toEqual([
      {
        target: { channel: 'signal', conversationId: 'dm-alice' },
        content: {
          text: 'Doucement : vous pouvez envoyer un message toutes les 30 secondes. Vos messages sont ignorés d’ici là.',
        },
      },
    ])
    const bobInClub = { person: 'bob', channel: 'signal', group: 'club' }
    await bot.inspect('hello', bobInClub)
    expect((await bot.inspect('hello', bobInClub)).allow).toBe(false)
    expect(told).toHaveLength(1)
    expect(bot.logs.filter((line) => line.level === 'warn')).toHaveLength(2)
    await bot.stop()
  })

  it('sweeps the buckets that say nothing any more, on its schedule', async () => {
    const { bot } = await floodBot({ messages: 5, windowSeconds: 60 })
    const [storage, schedule] = [bot.storage(), bot.schedule()]
    expect((await schedule.list()).map((entry) => [entry.id, entry.cron])).toEqual([
      ['sweep', '*/15 * * * *'],
    ])
    await storage.set(bucketKey('signal', 'old'), { tokens: 0, at: Date.now() - 3_600_000 })
    await storage.set(bucketKey('signal', 'busy'), { tokens: 0, at: Date.now() })
    await bot.clock.advance(15 * 60 * 1000)
    expect(schedule.errors).toEqual([])
    expect(Object.keys(storage.snapshot())).toEqual([bucketKey('signal', 'busy')])
    await bot.stop()
  })

  it('names what is wrong with its settings', () => {
    const refused = module.configSchema.safeParse({ messages: 0, exempt: ['alice'] })
    expect(refused.success ? [] : refused.error.issues.map((issue) => issue.path.join('.'))).toEqual([
      'messages',
      'exempt.0',
    ])
  })
})
