export {
  MIGRATIONS_FOLDER,
  NewerDatabaseError,
  type OpenStoreOptions,
  openStore,
  type Store,
  type StoreDatabase,
  StoreError,
} from './open.ts'
export { ensureDefaultRole, ensureOwner, type OwnerIdentity } from './owner.ts'
export {
  createPluginStore,
  type PluginStore,
  type PluginStoreOptions,
  type StoredSetting,
} from './plugins.ts'
export { ensurePrincipal, type IdentityKey, principalIdOf } from './principals.ts'
export { ensureOwnerRole, ensureRole, grantRole, OWNER_ROLE, patternsOf, roleNamesOf } from './roles.ts'
