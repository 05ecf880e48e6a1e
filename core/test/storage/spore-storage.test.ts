// A spore's storage over a real SQLite file: JSON values only, prefixes taken literally, schemas on
// read and write, atomic transactions that must not await, and a quota that changes nothing when hit.
import { afterEach, beforeEach, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { StorageError } from '@mycelo/septum'
import { z } from 'zod'
import { SqliteSporeStorage } from '../../storage/spore-storage.ts'
import { openStore, type Store } from '../../store/index.ts'
import { scratchFolder } from '../store/scratch.ts'

let scratch: ReturnType<typeof scratchFolder>
let store: Store
beforeEach(() => {
  scratch = scratchFolder('storage')
  store = openStore({ path: join(scratch.path, 'mycelo.db') })
})
afterEach(() => {
  store.close()
  scratch.remove()
})

const storageOf = (spore: string, quotaBytes = 10_000) => new SqliteSporeStorage({ store, spore, quotaBytes })

/** The StorageError a call rejects with, so its message and key can be read. */
async function refusal(work: () => Promise<unknown>): Promise<StorageError> {
  try {
    await work()
  } catch (error) {
    expect(error).toBeInstanceOf(StorageError)
    return error as StorageError
  }
  throw new Error('the call was not refused')
}

describe('spore storage', () => {
  it('sets, gets, lists by prefix and deletes, each spore in its own namespace', async () => {
    const notes = storageOf('notes')
    await notes.set('user:1', { name: 'Ada', tags: ['a'] })
    await notes.set('user:2', 'Grace')
    await notes.set('other', 3)
    await storageOf('elsewhere').set('user:9', true)
    expect(await notes.get('user:1')).toEqual({ name: 'Ada', tags: ['a'] })
    expect(await notes.get('missing')).toBeUndefined()
    expect(await notes.list('user:')).toEqual([
      { key: 'user:1', value: { name: 'Ada', tags: ['a'] } },
      { key: 'user:2', value: 'Grace' },
    ])
    expect((await notes.list()).map((entry) => entry.key)).toEqual(['other', 'user:1', 'user:2'])
    expect(await notes.delete('user:2')).toBe(true)
    expect(await notes.delete('user:2')).toBe(false)
    expect(await storageOf('elsewhere').list()).toEqual([{ key: 'user:9', value: true }])
  })

  it('takes a prefix literally: % and _ are characters, not wildcards', async () => {
    const notes = storageOf('notes')
    await notes.set('50%_off', 1)
    await notes.set('50xyoff', 2)
    await notes.set('5', 3)
    expect(await notes.list('50%_')).toEqual([{ key: '50%_off', value: 1 }])
    expect(await notes.list('50%')).toEqual([{ key: '50%_off', value: 1 }])
  })

  it('keeps what it stored across a reopening of the database file', async () => {
    await storageOf('notes').set('kept', { n: 1 })
    store.close()
    store = openStore({ path: join(scratch.path, 'mycelo.db') })
    expect(await storageOf('notes').get('kept')).toEqual({ n: 1 })
  })

  it('refuses values JSON would change or drop, naming the key and where the problem is', async () => {
    const notes = storageOf('notes')
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    const cases: [unknown, string][] = [
      [() => 1, 'the value is a function'],
      [undefined, 'the value is undefined'],
      [10n, 'the value is a BigInt'],
      [
        { at: new Date(0) },
        'at is a Date; store plain objects, arrays and primitives (a Date as its ISO string)',
      ],
      [{ list: [1, Number.NaN] }, 'list[1] is NaN, which JSON cannot hold'],
      [cycle, 'self refers back to itself (a cycle)'],
    ]
    for (const [value, problem] of cases) {
      const error = await refusal(() => notes.set('bad', value))
      expect(error.message).toBe(`storage key "bad": the value is not JSON: ${problem}`)
      expect(error.key).toBe('bad')
    }
    expect(await notes.list()).toEqual([])
  })

  it('refuses an empty or non-string key, and a non-string prefix', async () => {
    const notes = storageOf('notes')
    expect((await refusal(() => notes.set('', 1))).message).toBe(
      'a storage key must be a non-empty string, got an empty string',
    )
    expect((await refusal(() => notes.get(7 as unknown as string))).message).toBe(
      'a storage key must be a non-empty string, got number',
    )
    expect((await refusal(() => notes.list(1 as unknown as string))).message).toBe(
      'a storage prefix must be a string, got number',
    )
  })

  it('checks a schema on write and on read, naming the key', async () => {
    const notes = storageOf('notes')
    const counter = z.object({ count: z.number().int() })
    await notes.set('visits', { count: 2 }, counter)
    expect(await notes.get('visits', counter)).toEqual({ count: 2 })
    const written = await refusal(() => notes.set('visits', { count: 'many' } as never, counter))
    expect(written.message).toStartWith('storage key "visits": the schema refused the value to write: ')
    expect(await notes.get('visits')).toEqual({ count: 2 })
    await notes.set('legacy', { count: 1.5 })
    const read = await refusal(() => notes.get('legacy', counter))
    expect(read.message).toStartWith('storage key "legacy": the schema refused the stored value: ')
  })

  it('commits a transaction whole, and rolls it back whole when it throws', async () => {
    const bank = storageOf('bank')
    await bank.set('a', 10)
    await bank.set('b', 0)
    const moved = await bank.transaction((tx) => {
      tx.set('a', (tx.get<number>('a') ?? 0) - 4)
      tx.set('b', (tx.get<number>('b') ?? 0) + 4)
      return tx.list().length
    })
    expect(moved).toBe(2)
    expect(await bank.list()).toEqual([
      { key: 'a', value: 6 },
      { key: 'b', value: 4 },
    ])
    await expect(
      bank.transaction((tx) => {
        tx.set('a', 0)
        tx.delete('b')
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(await bank.list()).toEqual([
      { key: 'a', value: 6 },
      { key: 'b', value: 4 },
    ])
  })

  it('refuses a transaction whose work returns a promise, and writes nothing of it', async () => {
    const bank = storageOf('bank')
    const error = await refusal(() =>
      bank.transaction(async (tx) => {
        tx.set('half', 1)
      }),
    )
    expect(error.message).toBe(
      'spore "bank": a storage transaction must not await (its work returned a promise); nothing was written',
    )
    expect(await bank.get('half')).toBeUndefined()
  })

  it('refuses an asynchronous schema inside a transaction', async () => {
    const notes = storageOf('notes')
    const slow = z.string().refine(async () => true)
    const error = await refusal(() => notes.transaction((tx) => tx.set('k', 'v', slow)))
    expect(error.message).toBe(
      'storage key "k": the schema validates asynchronously, which a transaction cannot wait for',
    )
    expect(await notes.get('k')).toBeUndefined()
  })

  it('refuses a write past the quota and changes nothing, counting keys and JSON in UTF-8 bytes', async () => {
    // "k1" + "\"é\"" is 2 + 4 bytes.
    const small = storageOf('small', 12)
    await small.set('k1', 'é')
    const error = await refusal(() => small.set('k2', 'éé'))
    expect(error.message).toBe(
      'spore "small", storage key "k2": writing it would use 14 bytes, past the quota of 12 (mycelo.yaml storage)',
    )
    expect(error.key).toBe('k2')
    expect(await small.list()).toEqual([{ key: 'k1', value: 'é' }])
    // A transaction that goes past the quota part-way leaves everything as it was.
    await expect(
      small.transaction((tx) => {
        tx.delete('k1')
        tx.set('k3', 'x')
        tx.set('k4', 'a much longer value')
      }),
    ).rejects.toThrow('past the quota of 12')
    expect(await small.list()).toEqual([{ key: 'k1', value: 'é' }])
    // Shrinking is always allowed, even over a lowered quota.
    const lowered = storageOf('small', 3)
    await lowered.set('k1', '')
    expect(await lowered.get('k1')).toBe('')
  })
})
