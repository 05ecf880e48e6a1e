// The install side of a sporangium: from a verified archive's bytes to a spore folder the core
// discovers. Being built on the `archive` branch; this file fixes its interface for the fetch side.
import type { Inoculation, Logger, Outcome } from '@mycelo/septum'
import type { MyceloConfig } from '../boot/config.ts'
import type { Refusal } from '../mycelium/outcome.ts'
import type { PluginStore, Store } from '../store/index.ts'

/** A strain's archive, fetched and proven to be the one its source published. */
export interface StrainArchive {
  readonly spore: string
  readonly strain: string
  /** The id of the source it came from. */
  readonly source: string
  readonly bytes: Uint8Array
  /** Lowercase hex, already checked against what the source published. */
  readonly sha256: string
}

export interface InstallationDeps {
  readonly store: Store
  readonly plugins: PluginStore
  readonly config: MyceloConfig
  readonly logger: Logger
  /** The septum the core runs; defaults to this package's own. */
  readonly septumVersion?: string
}

export type InstallOutcome =
  | { readonly ok: true; readonly value: Inoculation }
  | { readonly ok: false; readonly refusal: Refusal['refusal'] }

/** Validates, stages and moves a strain into place (installing, or upgrading the installed one). */
export async function installStrain(
  _deps: InstallationDeps,
  _archive: StrainArchive,
): Promise<InstallOutcome> {
  throw new Error('installing a strain is not built yet')
}

/** Puts back the strain an upgrade replaced. */
export async function rollBack(_deps: InstallationDeps, _spore: string): Promise<InstallOutcome> {
  throw new Error('rolling back is not built yet')
}

/** Removes an installed spore's folder and install row. */
export async function uninstall(_deps: InstallationDeps, _spore: string): Promise<Outcome> {
  throw new Error('uninstalling is not built yet')
}
