import type { OperationSchema } from '../contract/module.ts'
import type { SporeStorage, StorageTransaction, StoredEntry } from '../contract/storage.ts'
import { StorageError } from '../storage/storage-error.ts'
import {
  checkKey,
  checkPrefix,
  checkSchema,
  checkSchemaNow,
  decodeValue,
  encodeValue,
  entryBytes,
} from '../storage/values.ts'

export interface MemoryStorageOptions {
  /** The quota writes are refused past; the bot's default (10 MiB) unless given. */
  readonly quotaBytes?: number
  /** Entries present from the start, as if earlier runs had written them. */
  readonly entries?: Readonly<Record<string, unknown>>
}

/** What a test reads besides the SporeStorage itself: every entry as stored, and the bytes used. */
export interface MemoryStorage extends SporeStorage {
  snapshot(): Record<string, unknown>
  bytes(): number
}

const DEFAULT_QUOTA = 10 * 1024 * 1024

/**
 * septum 1.1: an in-memory SporeStorage for a spore's own tests. It keeps the bot's rules: JSON
 * values only, schema checks on read and write, the quota, and transactions that must not await.
 */
export function memoryStorage(options: MemoryStorageOptions = {}): MemoryStorage {
  const quota = options.quotaBytes ?? DEFAULT_QUOTA
  let entries = new Map<string, string>()
  for (const [key, value] of Object.entries(options.entries ?? {}))
    entries.set(checkKey(key), encodeValue(key, value))
  const run = <T>(work: (tx: StorageTransaction) => T): T => {
    const draft = new Map(entries)
    const result = work(view(draft, quota))
    if (result instanceof Promise || (typeof result === 'object' && result !== null && 'then' in result)) {
      Promise.resolve(result).catch(() => undefined)
      throw new StorageError(
        'a storage transaction must not await: its work returned a promise, so nothing was written',
      )
    }
    entries = draft
    return result
  }
  return {
    async get<T>(key: string, schema?: OperationSchema<T>) {
      const text = entries.get(checkKey(key))
      return text === undefined ? undefined : checkSchema(key, decodeValue(text), schema, 'read')
    },
    async set<T>(key: string, value: T, schema?: OperationSchema<T>) {
      const checked = await checkSchema(checkKey(key), value, schema, 'write')
      run((tx) => tx.set(key, checked))
    },
    async delete(key: string) {
      return run((tx) => tx.delete(key))
    },
    async list<T>(prefix?: string, schema?: OperationSchema<T>) {
      const found = view(entries, quota).list(prefix)
      const checked: StoredEntry<T>[] = []
      for (const entry of found)
        checked.push({ key: entry.key, value: await checkSchema(entry.key, entry.value, schema, 'read') })
      return checked
    },
    async transaction<T>(work: (tx: StorageTransaction) => T) {
      return run(work)
    },
    snapshot: () => Object.fromEntries([...entries].map(([key, text]) => [key, decodeValue(text)])),
    bytes: () => total(entries),
  }
}

function view(entries: Map<string, string>, quota: number): StorageTransaction {
  return {
    get<T>(key: string, schema?: OperationSchema<T>) {
      const text = entries.get(checkKey(key))
      return text === undefined ? undefined : checkSchemaNow(key, decodeValue(text), schema, 'read')
    },
    set<T>(key: string, value: T, schema?: OperationSchema<T>) {
      const json = encodeValue(checkKey(key), checkSchemaNow(key, value, schema, 'write'))
      const before = entries.get(key)
      const growth = entryBytes(key, json) - (before === undefined ? 0 : entryBytes(key, before))
      const used = total(entries)
      if (growth > 0 && used + growth > quota) {
        throw new StorageError(
          `storage key "${key}": writing it would use ${used + growth} bytes, past this spore's quota of ${quota}`,
          key,
        )
      }
      entries.set(key, json)
    },
    delete: (key: string) => entries.delete(checkKey(key)),
    list<T>(prefix?: string, schema?: OperationSchema<T>) {
      const start = checkPrefix(prefix)
      return [...entries.keys()]
        .filter((key) => key.startsWith(start))
        .sort()
        .map((key) => ({ key, value: checkSchemaNow(key, decodeValue(entries.get(key)!), schema, 'read') }))
    },
  }
}

function total(entries: ReadonlyMap<string, string>): number {
  let bytes = 0
  for (const [key, json] of entries) bytes += entryBytes(key, json)
  return bytes
}
