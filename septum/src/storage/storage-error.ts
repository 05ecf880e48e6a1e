/**
 * septum 1.1: a storage call refused: a bad key, a value that is not JSON, a schema that does not
 * accept the value, a write past the spore's quota, or a transaction that awaited. `key` names the
 * entry concerned when there is one.
 */
export class StorageError extends Error {
  override readonly name = 'StorageError'
  readonly key: string | undefined
  constructor(message: string, key?: string) {
    super(message)
    this.key = key
  }
}
