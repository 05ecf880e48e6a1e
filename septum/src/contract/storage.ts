import type { OperationSchema } from './module.ts'

/** One stored entry, as `list` returns it. */
export interface StoredEntry<T = unknown> {
  readonly key: string
  readonly value: T
}

/**
 * The synchronous view a transaction or migration works through: every call lands in one SQLite
 * transaction, so the callback must not await (a returned promise is refused and rolled back).
 */
export interface StorageTransaction {
  get<T = unknown>(key: string, schema?: OperationSchema<T>): T | undefined
  set<T = unknown>(key: string, value: T, schema?: OperationSchema<T>): void
  delete(key: string): boolean
  /** Entries whose key starts with `prefix` (all when omitted), ordered by key. */
  list<T = unknown>(prefix?: string, schema?: OperationSchema<T>): readonly StoredEntry<T>[]
}

/**
 * septum 1.1: a spore's own key–value namespace in the bot's database. Values are JSON; a schema,
 * when given, is checked on read and write. Writes past the spore's quota throw a StorageError.
 */
export interface SporeStorage {
  get<T = unknown>(key: string, schema?: OperationSchema<T>): Promise<T | undefined>
  set<T = unknown>(key: string, value: T, schema?: OperationSchema<T>): Promise<void>
  delete(key: string): Promise<boolean>
  list<T = unknown>(prefix?: string, schema?: OperationSchema<T>): Promise<readonly StoredEntry<T>[]>
  /** Runs `work` atomically: all its writes land, or none. */
  transaction<T>(work: (tx: StorageTransaction) => T): Promise<T>
}

/** A versioned step the spore declares; each runs once, in order, in a transaction, before start. */
export interface StorageMigration {
  /** Strictly increasing positive integers. */
  readonly version: number
  readonly description?: string
  up(tx: StorageTransaction): void
}
