import type { SporeStorage } from '../contract/storage.ts'
import { type EntryRows, storageOver } from '../storage/entries-view.ts'
import { checkKey, decodeValue, encodeValue, entryBytes } from '../storage/values.ts'

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

export const DEFAULT_QUOTA = 10 * 1024 * 1024

/**
 * septum 1.1: an in-memory SporeStorage for a spore's own tests. It keeps the bot's rules: JSON
 * values only, schema checks on read and write, the quota, and transactions that must not await.
 */
export function memoryStorage(options: MemoryStorageOptions = {}): MemoryStorage {
  let entries = new Map<string, string>()
  for (const [key, value] of Object.entries(options.entries ?? {}))
    entries.set(checkKey(key), encodeValue(key, value))
  // A transaction writes into a copy, which replaces the entries only when its work returned.
  let current = entries
  const rows: EntryRows = {
    read: (key) => current.get(key),
    write: (key, json) => void current.set(key, json),
    remove: (key) => current.delete(key),
    list: (prefix) =>
      [...current.keys()]
        .filter((key) => key.startsWith(prefix))
        .sort()
        .map((key) => ({ key, json: current.get(key)! })),
    bytes: () => total(current),
  }
  const storage = storageOver(rows, options.quotaBytes ?? DEFAULT_QUOTA, (inside) => {
    const draft = new Map(entries)
    current = draft
    try {
      const result = inside()
      entries = draft
      return result
    } finally {
      current = entries
    }
  })
  return {
    get: storage.get,
    set: storage.set,
    delete: storage.delete,
    list: storage.list,
    transaction: storage.transaction,
    snapshot: () => Object.fromEntries([...entries].map(([key, text]) => [key, decodeValue(text)])),
    bytes: () => total(entries),
  }
}

function total(entries: ReadonlyMap<string, string>): number {
  let bytes = 0
  for (const [key, json] of entries) bytes += entryBytes(key, json)
  return bytes
}
