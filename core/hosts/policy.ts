import { realpathSync } from 'node:fs'
import { resolve, sep } from 'node:path'
import { CHECKOUT } from '../boot/shipped.ts'
import type { GuardedImport } from './import-guard.ts'

export type Isolation = 'worker' | 'inline'

/** mycelo.yaml's `isolation:` and `limits:` as the hosts read them. */
export interface IsolationPolicy {
  /** Unset: a spore shipped in the checkout's own spores/ runs inline, every other one in a worker. */
  readonly default?: Isolation | undefined
  readonly spores: Readonly<Record<string, Isolation>>
  /** Guarded imports the operator allows, by spore. */
  readonly allow: Readonly<Record<string, readonly GuardedImport[]>>
  /** The heap (JS and external) one host may hold before it is ended and restarted. */
  readonly memoryMiB: number
  readonly memory: Readonly<Record<string, number>>
}

export const DEFAULT_MEMORY_MIB = 256

export const DEFAULT_POLICY: IsolationPolicy = {
  spores: {},
  allow: {},
  memoryMiB: DEFAULT_MEMORY_MIB,
  memory: {},
}

/**
 * The checkout's own spores folder: what ships with the core, reviewed with it. An executable ships
 * no spore: every spore it finds on disk runs in a host unless the operator says otherwise.
 */
const FIRST_PARTY = CHECKOUT === undefined ? undefined : `${realpathSync(CHECKOUT)}${sep}spores${sep}`

/** A folder by its real path, links resolved (how Bun names the files it loads), or as given if it cannot be. */
export function realDir(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return resolve(dir)
  }
}

/** How one spore runs: the operator's word for it, else the default, else where it was found. */
export function isolationOf(policy: IsolationPolicy, name: string, dir: string): Isolation {
  const chosen = policy.spores[name] ?? policy.default
  if (chosen !== undefined) return chosen
  // MYCELO_ISOLATION=worker runs every spore in a host: how the first-party suites are run isolated.
  const forced = process.env.MYCELO_ISOLATION
  if (forced === 'worker' || forced === 'inline') return forced
  return FIRST_PARTY !== undefined && `${realDir(dir)}${sep}`.startsWith(FIRST_PARTY) ? 'inline' : 'worker'
}
