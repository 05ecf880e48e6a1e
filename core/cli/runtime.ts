import { join } from 'node:path'
import type { Logger } from '@mycelo/septum'
import { CORE_TRANSLATIONS, loadDomain } from '../boot/catalogues.ts'
import { ConfigFileError, loadConfig, type MyceloConfig } from '../boot/config.ts'
import { heldBy } from '../boot/instance-refusal.ts'
import { assembleRuntime } from '../boot/runtime.ts'
import { type Germination, germinate, StartupRefusal } from '../germination/index.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import {
  createPluginStore,
  ensureDefaultRole,
  ensureOwner,
  openStore,
  type PluginStore,
  type Store,
  StoreError,
} from '../store/index.ts'
import { acquireInstanceLock, type InstanceLock } from '../store/instance-lock.ts'

/** The core as the companion uses it: everything a start builds, with no spore started. */
export interface CliRuntime {
  readonly config: MyceloConfig
  readonly runtime: CoreRuntime
  readonly plugins: PluginStore
  /** Why germination was refused, when it was: the companion still serves roles and rules. */
  readonly refusal: string | undefined
  close(): void
}

export type Opened =
  | { readonly ok: true; readonly value: CliRuntime }
  /** Already worded: a bad config file, a database in use or unusable. */
  | { readonly ok: false; readonly text: string }

export interface OpenOptions {
  /** A write holds the database for its whole run; a read works on a copy, beside a running bot. */
  readonly write: boolean
  readonly logger: Logger
  readonly env: Readonly<Record<string, string | undefined>>
  /** Words a held database's refusal; given the holder's description. */
  readonly held: (reason: string, config: MyceloConfig) => string
}

/** config → (lock) → database → owner bootstrap → germination → assembled runtime, as a start does. */
export async function openRuntime(options: OpenOptions): Promise<Opened> {
  const { write, logger } = options
  let config: MyceloConfig
  try {
    config = loadConfig({ env: options.env })
  } catch (error) {
    if (error instanceof ConfigFileError) return { ok: false, text: error.message }
    throw error
  }
  const lock: InstanceLock = write
    ? acquireInstanceLock(config.database)
    : { ok: true, release: () => undefined }
  if (!lock.ok) return { ok: false, text: options.held(heldBy(lock.holder, config), config) }
  let store: Store | undefined
  try {
    store = openStore({ path: config.database, snapshot: !write })
    const plugins = createPluginStore(store)
    ensureOwner(store, config.owner)
    ensureDefaultRole(store, config.defaultRole)
    let refusal: string | undefined
    let germination: Germination
    try {
      germination = await germinate({ folders: config.spores, store: plugins, logger })
    } catch (error) {
      // A cycle or a name clash must not keep the operator from the roles that would let them fix it.
      if (!(error instanceof StartupRefusal)) throw error
      refusal = error.message
      germination = { spores: [], byName: new Map(), order: [], logger, started: [], warnings: [] }
    }
    const { runtime } = assembleRuntime({
      config,
      store,
      plugins,
      logger,
      germination,
      core: loadDomain(join(CORE_TRANSLATIONS, 'core')),
      common: loadDomain(join(CORE_TRANSLATIONS, 'common')),
    })
    return {
      ok: true,
      value: {
        config,
        runtime,
        plugins,
        refusal,
        close() {
          store?.close()
          lock.release()
        },
      },
    }
  } catch (error) {
    store?.close()
    lock.release()
    if (error instanceof StoreError) return { ok: false, text: error.message }
    throw error
  }
}
