// The rules every SporeStorage keeps, whatever holds the entries: keys checked, values JSON and
// checked by a schema when given, the quota on growth only, and transactions that must not await.
import type { OperationSchema } from '../contract/module.ts'
import type { SporeStorage, StorageTransaction, StoredEntry } from '../contract/storage.ts'
import { StorageError } from './storage-error.ts'
import {
  checkKey,
  checkPrefix,
  checkSchema,
  checkSchemaNow,
  decodeValue,
  encodeValue,
  entryBytes,
} from './values.ts'

/** Where entries live: a Map in memory, rows of a SQLite file. Values are their JSON text. */
export interface EntryRows {
  read(key: string): string | undefined
  write(key: string, json: string): void
  remove(key: string): boolean
  /** Keys starting with `prefix`, ordered by key, with their JSON. */
  list(prefix: string): readonly { readonly key: string; readonly json: string }[]
  /** Every key's and value's UTF-8 bytes, as the quota counts them. */
  bytes(): number
}

/** What a write past the quota is refused with: the bot names the spore and where the quota is set. */
export type QuotaRefusal = (key: string, wouldUse: number, quotaBytes: number) => string

const quotaRefusal: QuotaRefusal = (key, wouldUse, quotaBytes) =>
  `storage key "${key}": writing it would use ${wouldUse} bytes, past this spore's quota of ${quotaBytes}`

/** The synchronous view a transaction or a migration works through. */
export function entriesView(
  rows: EntryRows,
  quotaBytes: number,
  refusal: QuotaRefusal = quotaRefusal,
): StorageTransaction {
  return {
    get<T>(key: string, schema?: OperationSchema<T>) {
      const text = rows.read(checkKey(key))
      return text === undefined ? undefined : checkSchemaNow(key, decodeValue(text), schema, 'read')
    },
    set<T>(key: string, value: T, schema?: OperationSchema<T>) {
      const json = encodeValue(checkKey(key), checkSchemaNow(key, value, schema, 'write'))
      const before = rows.read(key)
      const growth = entryBytes(key, json) - (before === undefined ? 0 : entryBytes(key, before))
      // Only growth is checked: a spore over a lowered quota may still shrink or delete.
      if (growth > 0) {
        const used = rows.bytes()
        if (used + growth > quotaBytes) throw new StorageError(refusal(key, used + growth, quotaBytes), key)
      }
      rows.write(key, json)
    },
    delete: (key: string) => rows.remove(checkKey(key)),
    list<T>(prefix?: string, schema?: OperationSchema<T>) {
      return rows
        .list(checkPrefix(prefix))
        .map(({ key, json }) => ({ key, value: checkSchemaNow(key, decodeValue(json), schema, 'read') }))
    },
  }
}

/** Runs `work` inside a transaction `atomically` opens; a promise it returns is refused, nothing written. */
export function synchronousWork<T>(work: (tx: StorageTransaction) => T, tx: StorageTransaction): T {
  const result = work(tx)
  if (
    typeof result === 'object' &&
    result !== null &&
    typeof (result as { then?: unknown }).then === 'function'
  ) {
    Promise.resolve(result).catch(() => undefined)
    throw new StorageError(
      'a storage transaction must not await: its work returned a promise, so nothing was written',
    )
  }
  return result
}

/**
 * A SporeStorage over `rows`: reads straight from them, every write through `atomically`, which
 * runs its callback in one transaction (all of it lands, or none).
 */
export function storageOver(
  rows: EntryRows,
  quotaBytes: number,
  atomically: <T>(inside: () => T) => T,
): SporeStorage & { run<T>(work: (tx: StorageTransaction) => T): T } {
  const run = <T>(work: (tx: StorageTransaction) => T): T =>
    atomically(() => synchronousWork(work, entriesView(rows, quotaBytes)))
  return {
    run,
    async get<T>(key: string, schema?: OperationSchema<T>) {
      const text = rows.read(checkKey(key))
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
      const checked: StoredEntry<T>[] = []
      for (const { key, json } of rows.list(checkPrefix(prefix)))
        checked.push({ key, value: await checkSchema(key, decodeValue(json), schema, 'read') })
      return checked
    },
    async transaction<T>(work: (tx: StorageTransaction) => T) {
      return run(work)
    },
  }
}
