import type { Logger } from '@mycelo/septum'
import { coreCatalogues } from '../boot/catalogues.ts'
import type { MyceloConfig } from '../boot/config.ts'
import { germinateConfigured } from '../boot/germinating.ts'
import { openBot } from '../boot/opening.ts'
import { assembleRuntime } from '../boot/runtime.ts'
import { type Germination, StartupRefusal } from '../germination/index.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { PluginStore } from '../store/index.ts'

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
  const opening = openBot({ env: options.env, write })
  if (!opening.ok) {
    const { error, config } = opening
    // A held database is worded for the companion: nothing was changed, and what to do instead.
    return { ok: false, text: opening.held && config ? options.held(error, config) : error }
  }
  const { config, store, plugins, close } = opening.value
  try {
    let refusal: string | undefined
    let germination: Germination
    try {
      germination = await germinateConfigured(config, plugins, logger)
    } catch (error) {
      // A spores folder that cannot be read must not keep the operator from the roles that would fix it.
      if (!(error instanceof StartupRefusal)) throw error
      refusal = error.message
      germination = { spores: [], byName: new Map(), order: [], logger, started: [], warnings: [] }
    }
    const { runtime } = assembleRuntime({ config, store, plugins, logger, germination, ...coreCatalogues() })
    return { ok: true, value: { config, runtime, plugins, refusal, close } }
  } catch (error) {
    close()
    throw error
  }
}
