import {
  checkKey,
  checkPrefix,
  checkSchema,
  decodeValue,
  type EntryRows,
  entriesView,
  type OperationSchema,
  type SporeStorage,
  StorageError,
  type StorageTransaction,
  type StoredEntry,
} from '@mycelo/septum'
import { noteWrite } from '../store/log-flush.ts'
import type { Store } from '../store/open.ts'
import { isThenable } from '../supervision/deadline.ts'
import { bytesUsed, deleteEntry, listEntries, type Queryable, readEntry, writeEntry } from './rows.ts'

export interface SporeStorageOptions {
  readonly store: Store
  readonly spore: string
  readonly quotaBytes: number
}

/**
 * A spore's namespace in the bot's database. Every write runs in a SQLite transaction that checks
 * the quota before it commits, so a refused write changes nothing.
 */
export class SqliteSporeStorage implements SporeStorage {
  readonly #options: SporeStorageOptions

  constructor(options: SporeStorageOptions) {
    this.#options = options
  }

  async get<T>(key: string, schema?: OperationSchema<T>): Promise<T | undefined> {
    const text = readEntry(this.#options.store.db, this.#options.spore, checkKey(key))
    return text === undefined ? undefined : checkSchema(key, decodeValue(text), schema, 'read')
  }

  async set<T>(key: string, value: T, schema?: OperationSchema<T>): Promise<void> {
    const checked = await checkSchema(checkKey(key), value, schema, 'write')
    this.run((tx) => tx.set(key, checked))
  }

  async delete(key: string): Promise<boolean> {
    return this.run((tx) => tx.delete(key))
  }

  async list<T>(prefix?: string, schema?: OperationSchema<T>): Promise<readonly StoredEntry<T>[]> {
    const rows = listEntries(this.#options.store.db, this.#options.spore, checkPrefix(prefix))
    const entries: StoredEntry<T>[] = []
    for (const row of rows) {
      entries.push({
        key: row.key,
        value: await checkSchema(row.key, decodeValue(row.value), schema, 'read'),
      })
    }
    return entries
  }

  async transaction<T>(work: (tx: StorageTransaction) => T): Promise<T> {
    return this.run(work)
  }

  /**
   * Runs `work` in one synchronous transaction (migrations use it too). A promise returned by it
   * cannot be waited for inside SQLite's transaction: it is refused and everything rolled back.
   */
  run<T>(work: (tx: StorageTransaction) => T): T {
    const { store, spore, quotaBytes } = this.#options
    noteWrite(store.db.$client)
    return store.db.transaction((db) => {
      const result = work(transactionView({ db, spore, quotaBytes }))
      if (isThenable(result)) {
        Promise.resolve(result).catch(() => undefined)
        throw new StorageError(
          `spore "${spore}": a storage transaction must not await (its work returned a promise); nothing was written`,
        )
      }
      return result
    })
  }
}

interface View {
  readonly db: Queryable
  readonly spore: string
  readonly quotaBytes: number
}

/** septum's one view of the storage rules, over this spore's rows of the bot's database. */
function transactionView({ db, spore, quotaBytes }: View): StorageTransaction {
  const rows: EntryRows = {
    read: (key) => readEntry(db, spore, key),
    write: (key, json) => writeEntry(db, spore, key, json),
    remove: (key) => deleteEntry(db, spore, key),
    list: (prefix) => listEntries(db, spore, prefix).map((row) => ({ key: row.key, json: row.value })),
    bytes: () => bytesUsed(db, spore),
  }
  return entriesView(
    rows,
    quotaBytes,
    (key, wouldUse, quota) =>
      `spore "${spore}", storage key "${key}": writing it would use ${wouldUse} bytes, past the quota of ${quota} (mycelo.yaml storage)`,
  )
}
