// Boots a core the way `bun run start` does (startUp), in a folder the test owns: its own
// mycelo.yaml, its own SQLite file, real spores on disk. Shared by the test harnesses.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../boot/config.ts'
import type { Assembly } from '../../boot/runtime.ts'
import { type Running, type StartUpOptions, startUp } from '../../boot/startup.ts'
import { createPluginStore, openStore, type PluginStore, type Store } from '../../store/index.ts'

export interface BootInFolderOptions {
  readonly folder: string
  /** The whole mycelo.yaml. */
  readonly config: string
  readonly logging: StartUpOptions['logging']
  /** Runs on the database before germination: settings, install rows, roles. */
  readonly prepare?: (store: Store, plugins: PluginStore) => void
}

export type BootedCore = Running & { readonly assembly: Assembly }

export async function bootInFolder(options: BootInFolderOptions): Promise<BootedCore> {
  const configFile = join(options.folder, 'mycelo.yaml')
  writeFileSync(configFile, options.config)
  if (options.prepare) {
    const store = openStore({ path: loadConfig({ path: configFile, env: {} }).database })
    try {
      options.prepare(store, createPluginStore(store))
    } finally {
      store.close()
    }
  }
  const started = await startUp({
    logging: options.logging,
    check: false,
    env: { MYCELO_CONFIG: configFile },
  })
  if (!started.ok) throw new Error(`the test core refused to start: ${started.error}`)
  return started.value as BootedCore
}
