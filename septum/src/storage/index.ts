export {
  type EntryRows,
  entriesView,
  type QuotaRefusal,
  storageOver,
  synchronousWork,
} from './entries-view.ts'
export { migrationsProblem } from './migrations.ts'
export { StorageError } from './storage-error.ts'
export {
  checkKey,
  checkPrefix,
  checkSchema,
  checkSchemaNow,
  decodeValue,
  encodeValue,
  entryBytes,
  MAX_KEY_LENGTH,
} from './values.ts'
