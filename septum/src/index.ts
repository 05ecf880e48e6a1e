export {
  CatalogError,
  type CatalogErrorOptions,
  type CompiledCatalog,
  checkCatalog,
  compileCatalog,
  fixedTextOf,
  flattenCatalog,
  formatMessage,
  formatterOf,
  lazyCatalog,
  type MessageFormatter,
} from './catalog/index.ts'
export { attachmentBytes } from './channel/attachment-bytes.ts'
export { type LaneCount, Outbox, type OutboxOptions } from './channel/outbox.ts'
export {
  type Backoff,
  backoffMs,
  type PollFailure,
  PollLoop,
  type PollLoopOptions,
  type PollState,
} from './channel/poll-loop.ts'
export { splitText } from './channel/split.ts'
export { isTemporaryFailure, TemporaryFailure } from './channel/temporary.ts'
export * from './command/index.ts'
export {
  closedSchemaUndeclaredSecrets,
  type DefineConfigOptions,
  type DefinedConfig,
  defineConfig,
  type FieldType,
  type FormField,
  formFields,
  type RawZodIssue,
  toConfigIssue,
} from './config/index.ts'
export {
  propertyOf as settingProperty,
  readSetting as readSettingText,
  type SettingReading,
} from './config/setting-text.ts'
export * from './contract/index.ts'
export { ManifestError, manifestErrorOf, parseManifest } from './manifest/index.ts'
export { DEFAULT_BODY_LIMIT, MAX_BODY_LIMIT } from './manifest/route.ts'
export { checkRange, type RangeCheck, type SemverRange, septumIncompatibility } from './range/index.ts'
export {
  DELIVERY_WINDOW_MS,
  type DeliveryCheck,
  type DeliveryRefusal,
  type DeliveryVerdict,
  ReplayGuard,
  type ReplayGuardOptions,
  SIGNATURE_HEADERS,
  type SignatureCheck,
  type SignatureScheme,
  verifySignature,
} from './route/index.ts'
export * from './schedule/index.ts'
export {
  INDEX_FORMAT,
  publisherKeySchema,
  type SporangiumIndex,
  type SporeEntry,
  type StrainEntry,
  sporangiumIndexSchema,
  sporeEntrySchema,
  strainEntrySchema,
  strainStatement,
} from './sporangium/index-format.ts'
export * from './storage/index.ts'
export { SEPTUM_VERSION } from './version.ts'
