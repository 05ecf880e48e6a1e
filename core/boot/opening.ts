import { ensureOfficialSources } from '../sporangium/official.ts'
import {
  createPluginStore,
  ensureDefaultRole,
  ensureOwner,
  openStore,
  type PluginStore,
  type Store,
  StoreError,
} from '../store/index.ts'
import { acquireInstanceLock } from '../store/instance-lock.ts'
import { ConfigFileError, loadConfig, type MyceloConfig } from './config.ts'
import { heldBy } from './instance-refusal.ts'
import type { Logging } from './log.ts'

/** The bot's configuration and database, opened and bootstrapped, before any spore is read. */
export interface Opened {
  readonly config: MyceloConfig
  readonly store: Store
  readonly plugins: PluginStore
  /** Closes the database and lets go of the bot's hold on it. */
  close(): void
}

export type Opening =
  | { readonly ok: true; readonly value: Opened }
  /** Already worded: a bad config file, a database another bot holds, or one that cannot be used. */
  | {
      readonly ok: false
      readonly error: string
      readonly config?: MyceloConfig
      /** Set when the refusal is another bot holding the database. */
      readonly held?: true
    }

export interface OpeningOptions {
  readonly env: Readonly<Record<string, string | undefined>>
  /**
   * Whether this run may change the database: it then holds it (one bot per database). Otherwise
   * it works on a copy and may run beside a bot.
   */
  readonly write: boolean
  /** Told every secret value at once, and again after each write of one, for the log redactor. */
  readonly logging?: Pick<Logging, 'setSecrets'>
}

/**
 * config → one bot per database → the database (migrated) → owner and default role: the first
 * steps of a start, a check and the command-line companion alike.
 */
export function openBot(options: OpeningOptions): Opening {
  let config: MyceloConfig
  try {
    config = loadConfig({ env: options.env })
  } catch (error) {
    if (error instanceof ConfigFileError) return { ok: false, error: error.message }
    throw error
  }
  const lock = options.write ? acquireInstanceLock(config.database) : { ok: true as const, release() {} }
  if (!lock.ok) return { ok: false, error: heldBy(lock.holder, config), config, held: true }
  let store: Store | undefined
  try {
    store = openStore({ path: config.database, snapshot: !options.write })
    const { logging } = options
    const plugins = createPluginStore(store, {
      onSecretWritten: () => logging?.setSecrets(plugins.secretValues()),
    })
    logging?.setSecrets(plugins.secretValues())
    ensureOwner(store, config.owner)
    ensureDefaultRole(store, config.defaultRole)
    ensureOfficialSources(store)
    const opened = store
    const close = () => {
      opened.close()
      lock.release()
    }
    return { ok: true, value: { config, store, plugins, close } }
  } catch (error) {
    store?.close()
    lock.release()
    if (error instanceof StoreError) return { ok: false, error: error.message, config }
    throw error
  }
}
