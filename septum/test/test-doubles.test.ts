import { describe, expect, it } from 'bun:test'
import { type RhizaModule, ScheduleError, StorageError } from '@mycelo/septum'
import { manualSchedule, memoryStorage, rhizaChecks } from '@mycelo/septum/conformance'
import { z } from 'zod'
import { rhizaContext } from './fixtures/conformance/contexts.ts'
import { loadSpore } from './fixtures/conformance/load-spore.ts'

const clock = await loadSpore('clock-rhiza')

describe('memoryStorage()', () => {
  it("keeps the bot's rules: JSON values, schemas, prefixes, atomic transactions and the quota", async () => {
    const storage = memoryStorage({ quotaBytes: 40, entries: { 'a:1': 1 } })
    await storage.set('a:2', { n: 2 }, z.object({ n: z.number() }))
    expect(await storage.list('a:')).toEqual([
      { key: 'a:1', value: 1 },
      { key: 'a:2', value: { n: 2 } },
    ])
    await expect(storage.set('f', () => 1)).rejects.toThrow(
      'storage key "f": the value is not JSON: the value is a function',
    )
    await expect(storage.set('big', 'x'.repeat(40))).rejects.toBeInstanceOf(StorageError)
    await expect(
      storage.transaction((tx) => {
        tx.delete('a:1')
        throw new Error('no')
      }),
    ).rejects.toThrow('no')
    await expect(storage.transaction(async () => undefined)).rejects.toThrow(
      'a storage transaction must not await',
    )
    expect(storage.snapshot()).toEqual({ 'a:1': 1, 'a:2': { n: 2 } })
    expect(storage.bytes()).toBe(3 + 1 + 3 + 7)
  })
})

describe('manualSchedule()', () => {
  it("runs cron and one-shot schedules as the test moves its clock, with the bot's checks", async () => {
    const schedule = manualSchedule({ now: '2026-03-01T00:00:00Z' })
    const ran: string[] = []
    await schedule.cron(
      '0 8 * * *',
      { id: 'morning', timeZone: 'Europe/Paris' },
      (run) => void ran.push(`${run.id} ${run.dueAt}`),
    )
    await schedule.once(
      '2026-03-01T12:00:00Z',
      { id: 'noon', data: { n: 1 } },
      (run) => void ran.push(`${run.id} ${JSON.stringify(run.data)}`),
    )
    await schedule.advance(36 * 3_600_000)
    expect(ran).toEqual([
      'morning 2026-03-01T07:00:00.000Z',
      'noon {"n":1}',
      'morning 2026-03-02T07:00:00.000Z',
    ])
    expect((await schedule.list()).map((entry) => entry.id)).toEqual(['morning'])
    await expect(
      schedule.once('2026-03-01T00:00:00Z', { id: 'late' }, () => undefined),
    ).rejects.toBeInstanceOf(ScheduleError)
    await expect(schedule.cron('nope', { id: 'bad' }, () => undefined)).rejects.toThrow(
      'schedule "bad": cron expression "nope" has 1 fields; expected 5',
    )
  })

  it("keeps a failed run's error, as the bot keeps it on the row", async () => {
    const schedule = manualSchedule()
    await schedule.once('2026-01-01T01:00:00Z', { id: 'x' }, () => {
      throw new Error('boom')
    })
    await schedule.advance(3_600_000)
    expect(schedule.errors.map((failure) => failure.id)).toEqual(['x'])
    expect((await schedule.list())[0]).toMatchObject({ id: 'x', lastError: 'boom' })
  })
})

describe('the kits check migrations', () => {
  const withMigrations = (migrations: unknown) => ({ ...(clock.module as object), migrations }) as RhizaModule
  const check = (migrations: unknown) =>
    rhizaChecks({
      name: 'clock',
      manifest: { ...(clock.manifest as object), septum: '^1.1' },
      module: withMigrations(migrations),
      context: rhizaContext,
    })

  it('passes migrations in order that run on an empty storage', async () => {
    expect(
      await check([{ version: 1, up: (tx: { set(k: string, v: unknown): void }) => tx.set('v', 1) }]),
    ).toEqual([])
  })

  it('fails versions that are not strictly increasing integers, or a migration without up()', async () => {
    expect(
      await check([
        { version: 2, up() {} },
        { version: 1, up() {} },
      ]),
    ).toEqual([
      'migrations: the bot would refuse them: migrations[1].version 1 does not come after 2: versions must be strictly increasing',
    ])
    expect(await check([{ version: 1.5, up() {} }])).toEqual([
      'migrations: the bot would refuse them: migrations[0].version must be a positive integer, got 1.5',
    ])
    expect(await check([{ version: 1 }])).toEqual([
      'migrations: the bot would refuse them: migrations[0] (version 1) has no up(tx) function',
    ])
    expect(await check({})).toEqual([
      'migrations: the bot would refuse them: migrations must be an array, got object',
    ])
  })

  it('fails a migration that throws or awaits on an empty storage', async () => {
    expect(
      await check([
        {
          version: 1,
          up() {
            throw new Error('no table')
          },
        },
      ]),
    ).toEqual(['migrations: version 1 failed on an empty storage: Error: no table'])
    expect(await check([{ version: 1, async up() {} }])).toEqual([
      'migrations: version 1 failed on an empty storage: StorageError: a storage transaction must not await: its work returned a promise, so nothing was written',
    ])
  })
})
