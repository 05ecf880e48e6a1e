// Boots a core the way `bun run start` does (startUp), in a folder the test owns: its own
// mycelo.yaml, its own SQLite file, real spores on disk. Shared by the test harnesses.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../boot/config.ts'
import type { Assembly } from '../../boot/runtime.ts'
import { type Running, type StartUpOptions, startUp } from '../../boot/startup.ts'
import type { Clock } from '../../schedule/clock.ts'
import {
  createPluginStore,
  ensurePrincipal,
  ensureRole,
  grantRole,
  openStore,
  type PluginStore,
  type Store,
} from '../../store/index.ts'

export interface BootInFolderOptions {
  readonly folder: string
  /** The whole mycelo.yaml. */
  readonly config: string
  readonly logging: StartUpOptions['logging']
  /** Runs on the database before germination: settings, install rows, roles. */
  readonly prepare?: (store: Store, plugins: PluginStore) => void
  /** The time schedules run by; the system's unless given. */
  readonly clock?: Clock
}

export type BootedCore = Running & { readonly assembly: Assembly }

export async function bootInFolder(options: BootInFolderOptions): Promise<BootedCore> {
  const configFile = join(options.folder, 'mycelo.yaml')
  // A test bot serves its page on a port of its own, never the default one another bot may hold.
  const http = /^http:/m.test(options.config) ? '' : '\nhttp:\n  port: 0\n'
  writeFileSync(configFile, `${options.config}${http}${testIsolation(options.config)}`)
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
    ...(options.clock ? { clock: options.clock } : {}),
  })
  if (!started.ok) throw new Error(`the test core refused to start: ${started.error}`)
  return started.value as BootedCore
}

/** A role handed to a channel identity before the first message. */
export interface Grant {
  readonly channel: string
  readonly externalId: string
  readonly roles: readonly string[]
}

export interface Seed {
  /** Settings written before germination: plugin → key → value. */
  readonly settings?: Record<string, Record<string, unknown>>
  /** Roles to create: role name → command patterns. */
  readonly roles?: Record<string, readonly string[]>
  readonly grants?: readonly Grant[]
}

/** What an operator would have left in the database before this start: settings, roles, grants. */
export function seedStore(seed: Seed): NonNullable<BootInFolderOptions['prepare']> {
  return (store, plugins) => {
    for (const [plugin, values] of Object.entries(seed.settings ?? {})) {
      for (const [key, value] of Object.entries(values)) plugins.setSetting(plugin, key, value)
    }
    for (const [role, patterns] of Object.entries(seed.roles ?? {})) ensureRole(store, role, { patterns })
    for (const grant of seed.grants ?? []) {
      const { id } = ensurePrincipal(store, { channel: grant.channel, externalId: grant.externalId })
      for (const role of grant.roles) grantRole(store, id, ensureRole(store, role, { patterns: [] }))
    }
  }
}

/**
 * A test's spores sit in a temporary folder, which the bot would isolate: they run inline unless the
 * test says otherwise, or MYCELO_ISOLATION=worker runs them all in hosts (the `chat` hypha, which
 * tests reach into, stays inline).
 */
function testIsolation(config: string): string {
  if (/^isolation:/m.test(config)) return ''
  const mode = process.env.MYCELO_ISOLATION === 'worker' ? 'worker' : 'inline'
  return `\nisolation:\n  default: ${mode}\n  spores: { chat: inline }\n`
}
