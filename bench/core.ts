// A core for the in-process scenarios: the test hypha `chat`, the bench enzyme, N inhibitors, and
// a database seeded before start-up, in a folder of its own.
import { join } from 'node:path'
import type { Logger } from '@mycelo/septum'
import { PrincipalDirectory } from '../core/identity/directory.ts'
import type { CoreRuntime } from '../core/rhizomorph/runtime.ts'
import { openStore, type Store } from '../core/store/index.ts'
import { inhibitor } from '../core/test/rhizomorph/spores.ts'
import { scratchFolder } from '../core/test/store/scratch.ts'
import { startTestCore, type TestCore } from '../core/test/support/runtime.ts'
import { BENCH_ENZYME } from './spores.ts'

export interface BenchCoreOptions {
  /** How many inhibitors judge every message; the last one is enforcing. */
  readonly inhibitors: number
  /** Writes to the database before start-up (people, roles). */
  readonly seed?: (store: Store) => void
  /** The role newcomers get; `crowd` (which may run the bench enzyme) unless given. */
  readonly defaultRole?: string
  /** The principal memory's capacity; 0 reads every principal from the store. */
  readonly directoryCapacity?: number
}

export interface BenchCore {
  readonly core: TestCore
  readonly chat: { say(message: unknown): Promise<void> }
  stop(): Promise<void>
}

export async function startBenchCore(options: BenchCoreOptions): Promise<BenchCore> {
  const scratch = scratchFolder('bench')
  const store = openStore({ path: join(scratch.path, 'mycelo.db') })
  ensureCrowd(store)
  options.seed?.(store)
  store.close()
  const inhibitors = Object.fromEntries(
    Array.from({ length: options.inhibitors }, (_, i) => {
      const name = `gate${String(i).padStart(2, '0')}`
      return [name, inhibitor(name, { enforcing: i === options.inhibitors - 1 })]
    }),
  )
  const core = await startTestCore({
    spores: { bench: BENCH_ENZYME, ...inhibitors },
    config: `defaultRole: ${options.defaultRole ?? 'crowd'}\n`,
    logLevel: 'warn',
    folder: scratch.path,
  })
  if (options.directoryCapacity !== undefined) {
    const runtime = core.assembly.runtime as { -readonly [K in keyof CoreRuntime]: CoreRuntime[K] }
    // The bus reads the directory from the runtime at every message: this swaps the memory only.
    runtime.directory = new PrincipalDirectory({
      store: runtime.store,
      defaultRole: runtime.config.defaultRole,
      logger: runtime.logger as Logger,
      capacity: options.directoryCapacity,
    })
  }
  const chat = core.germination.byName.get('chat')!.instance as BenchCore['chat']
  return {
    core,
    chat,
    async stop() {
      await core.stop()
      scratch.remove()
    },
  }
}

/** The role that may run the bench enzyme's commands. */
function ensureCrowd(store: Store): void {
  store.db.$client.run("INSERT OR IGNORE INTO roles (name, builtin) VALUES ('crowd', 0)")
  store.db.$client.run(
    "INSERT OR IGNORE INTO role_commands (role_id, pattern) SELECT id, 'bench.*' FROM roles WHERE name = 'crowd'",
  )
}

export interface CrowdOptions {
  readonly people: number
  /** Roles besides `crowd`, each with a few patterns; every person holds three of them. */
  readonly roles: number
}

/** `people` principals on `chat` (externalIds p0…), each holding `crowd` and three other roles. */
export function seedCrowd(options: CrowdOptions): (store: Store) => void {
  return (store) => {
    const sqlite = store.db.$client
    // One transaction of a million rows outgrows the default page cache and spills to the WAL again
    // and again; this connection is closed before the core starts, so what is measured is unchanged.
    sqlite.run('PRAGMA cache_size = -262144')
    sqlite.transaction(() => {
      const role = sqlite.prepare('INSERT INTO roles (name, builtin) VALUES (?, 0) RETURNING id')
      const pattern = sqlite.prepare('INSERT INTO role_commands (role_id, pattern) VALUES (?, ?)')
      const roleIds: number[] = []
      for (let r = 0; r < options.roles; r++) {
        const { id } = role.get(`role${r}`) as { id: number }
        roleIds.push(id)
        for (let p = 0; p < 3; p++) pattern.run(id, `spore${r}-${p}.*`)
      }
      const crowd = (sqlite.query("SELECT id FROM roles WHERE name = 'crowd'").get() as { id: number }).id
      const principal = sqlite.prepare('INSERT INTO principals (id) VALUES (?)')
      const identity = sqlite.prepare(
        "INSERT INTO channel_identities (principal_id, channel, external_id) VALUES (?, 'chat', ?)",
      )
      const grant = sqlite.prepare(
        'INSERT OR IGNORE INTO principal_roles (principal_id, role_id) VALUES (?, ?)',
      )
      for (let i = 0; i < options.people; i++) {
        const id = crypto.randomUUID()
        principal.run(id)
        identity.run(id, `p${i}`)
        grant.run(id, crowd)
        for (let k = 0; k < Math.min(3, roleIds.length); k++) {
          grant.run(id, roleIds[(i * 7 + k * 131) % roleIds.length]!)
        }
      }
    })()
  }
}
