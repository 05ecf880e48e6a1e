// The install side of a sporangium: from a verified archive's bytes to a spore folder the core
// discovers. An archive is read whole before a byte of it is written; it is unpacked into a fresh
// staging folder, checked there, and moved into place with one rename, the strain it replaces
// kept aside for a rollback. Any failure leaves the folders and the install row as they were.
import { createHash } from 'node:crypto'
import { mkdir, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { type Inoculation, type Logger, type Outcome, septumIncompatibility } from '@mycelo/septum'
import type { MyceloConfig } from '../boot/config.ts'
import { RESERVED_NAMES } from '../germination/germinate.ts'
import { type ManifestReading, readManifest } from '../germination/manifest-reading.ts'
import { reasonPart } from '../i18n/reason-words.ts'
import { DONE, type Refusal, refused } from '../mycelium/outcome.ts'
import type { PluginStore, Store } from '../store/index.ts'
import { restoreStrainRow, type StrainRow, strainRowOf, writeStrainRow } from '../store/strain-rows.ts'
import { layoutOf } from './archive/layout.ts'
import { scanArchive } from './archive/scan.ts'
import { collidingFolder } from './install/collision.ts'
import { decide } from './install/decision.ts'
import { oneAtATime } from './install/one-at-a-time.ts'
import { diskFiles, type StagingFiles } from './staging/files.ts'
import {
  cleanFolders,
  discard,
  exists,
  foldersOf,
  freshStage,
  type SporangiumFolders,
  setAside,
} from './staging/folders.ts'
import { unpackInto } from './staging/unpack.ts'

/** A strain's archive, fetched and proven to be the one its source published. */
export interface StrainArchive {
  readonly spore: string
  readonly strain: string
  /** The id of the source it came from. */
  readonly source: string
  readonly bytes: Uint8Array
  /** Lowercase hex, already checked against what the source published. */
  readonly sha256: string
  /** Packed from the copy the checkout carries rather than downloaded: said in the install's reason. */
  readonly carried?: boolean
}

export interface InstallationDeps {
  readonly store: Store
  readonly plugins: PluginStore
  readonly config: MyceloConfig
  readonly logger: Logger
  /** The septum the core runs; defaults to this package's own. */
  readonly septumVersion?: string
  /** How staging writes files; the disk unless a test gives a failing one. */
  readonly files?: StagingFiles
}

export type InstallOutcome =
  | { readonly ok: true; readonly value: Inoculation }
  | { readonly ok: false; readonly refusal: Refusal['refusal'] }

/** What a spore's name must be before it names a folder. */
const SPORE_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/

/** Validates, stages and moves a strain into place (installing, or upgrading the installed one). */
export function installStrain(deps: InstallationDeps, archive: StrainArchive): Promise<InstallOutcome> {
  return oneAtATime(archive.spore, () => install(deps, archive))
}

async function install(deps: InstallationDeps, archive: StrainArchive): Promise<InstallOutcome> {
  const { config } = deps
  const { spore, bytes } = archive
  const named = nameRefusal(spore)
  if (named) return named
  const folders = foldersOf(config)
  if (!config.spores.includes(folders.installs)) {
    const installs = folders.installs
    deps.logger.warn('the installs folder is not among the spores folders: what it holds never starts', {
      installs,
    })
  }
  // The caller proved the bytes; this only catches bytes swapped on the way here.
  if (createHash('sha256').update(bytes).digest('hex') !== archive.sha256)
    throw new Error(`the archive of ${spore} does not match the SHA-256 it was proven against`)
  const clash = await collidingFolder({ folders: config.spores, installs: folders.installs, spore })
  if (clash !== undefined) return refused('spore_collision', { spore, folder: clash })
  // The first pass only reads: a refused archive never reaches the disk.
  const limits = config.sporangia.limits
  const scanned = await scanArchive({ spore, bytes, limits })
  if (!scanned.ok) return scanned
  const layout = layoutOf(spore, scanned.entries)
  if (!layout.ok) return layout
  const stage = await freshStage(folders, spore)
  try {
    const root = join(stage, 'spore')
    const files = deps.files ?? diskFiles
    try {
      await files.makeFolder(root)
      const unpacked = await unpackInto({ spore, bytes, limits, strip: layout.strip, folder: root, files })
      if (!unpacked.ok) return unpacked
    } catch (error) {
      if (isDiskFull(error)) return refused('staging_disk_full', { spore })
      throw error
    }
    const next = await readManifest(root)
    const checked = checkManifest(spore, next, deps.septumVersion)
    if (checked) return checked
    return await place({ deps, folders, archive, next, staged: root })
  } finally {
    await discard(stage)
  }
}

/** Puts back the strain an upgrade replaced. */
export function rollBack(deps: InstallationDeps, spore: string): Promise<InstallOutcome> {
  return oneAtATime(spore, () => putBack(deps, spore))
}

async function putBack(deps: InstallationDeps, spore: string): Promise<InstallOutcome> {
  const named = nameRefusal(spore)
  if (named) return named
  const folders = foldersOf(deps.config)
  const kept = join(folders.previous, spore)
  if (!(await exists(kept))) return refused('strain_no_previous', { spore })
  const target = join(folders.installs, spore)
  const before = strainRowOf(deps.store, spore)
  const strain = before?.previousStrain ?? null
  const source = before?.previousSourceId ?? null
  const next = await readManifest(kept)
  const current = (await exists(target)) ? await readManifest(target) : undefined
  const what = reasonPart('rolledBack', { strain: strain ?? '?' })
  const decision = decide({ what, next, current, wasEnabled: before?.enabled === true })
  if (!decision.ok) return refused('strain_guard_enabled', { spore })
  const row = { ...decision, sourceId: source, strain, previousSourceId: null, previousStrain: null }
  writeStrainRow(deps.store, spore, stateOf(row))
  let aside: string | undefined
  try {
    if (current !== undefined) aside = await setAside(folders, target, spore)
    await rename(kept, target)
  } catch (error) {
    if (aside !== undefined) await rename(aside, target)
    restoreStrainRow(deps.store, spore, before)
    throw error
  } finally {
    if (aside !== undefined) await discard(join(aside, '..'))
  }
  deps.logger.info('strain rolled back', { spore, strain, enabled: row.enabled })
  return { ok: true, value: { spore, strain: strain ?? '', source: source ?? '', path: target } }
}

/**
 * Removes an installed spore's folder, the strain kept for a rollback and its install row. Its
 * settings stay, so a reinstall finds them. A running bot stops it at once (the mycelium settles it).
 */
export function uninstall(deps: InstallationDeps, spore: string): Promise<Outcome> {
  return oneAtATime(spore, () => remove(deps, spore))
}

async function remove(deps: InstallationDeps, spore: string): Promise<Outcome> {
  const named = nameRefusal(spore)
  if (named) return named
  const folders = foldersOf(deps.config)
  const target = join(folders.installs, spore)
  const kept = join(folders.previous, spore)
  const installed = await exists(target)
  if (!installed && !(await exists(kept))) return refused('spore_not_installed', { spore })
  // Removing an enabled enforcing inhibitor would open what it guards: that takes a disable first.
  const guard = installed ? await readManifest(target) : undefined
  if (guard?.enforcing && strainRowOf(deps.store, spore)?.enabled)
    return refused('uninstall_guard_enabled', { spore })
  // The kept strain goes first: cut short, this leaves the spore installed, never resurrected.
  const asides: string[] = []
  if (await exists(kept)) asides.push(await setAside(folders, kept, spore))
  if (installed) asides.push(await setAside(folders, target, spore))
  restoreStrainRow(deps.store, spore, undefined)
  for (const aside of asides) await discard(join(aside, '..'))
  deps.logger.info('spore uninstalled', { spore })
  return DONE
}

/** At start, before germination: clears what an interrupted install left behind. */
export async function cleanLeftovers(deps: Pick<InstallationDeps, 'config' | 'logger'>): Promise<void> {
  await cleanFolders(foldersOf(deps.config), deps.logger)
}

function nameRefusal(spore: string): Refusal | undefined {
  if (!SPORE_NAME.test(spore)) return refused('spore_name_invalid', { spore: spore.slice(0, 64) })
  if (RESERVED_NAMES.has(spore)) return refused('spore_name_reserved', { spore })
  return undefined
}

function checkManifest(spore: string, next: ManifestReading, septumVersion: string | undefined) {
  const { manifest } = next
  if (manifest === undefined)
    return refused('archive_manifest_refused', { spore, reason: next.refusal ?? '' })
  if (manifest.name !== spore) return refused('archive_manifest_name', { spore, named: manifest.name })
  const excluded = septumIncompatibility(manifest.septum, septumVersion)
  if (excluded !== undefined) return refused('archive_septum_excluded', { spore, reason: excluded })
  return undefined
}

interface Placing {
  readonly deps: InstallationDeps
  readonly folders: SporangiumFolders
  readonly archive: StrainArchive
  readonly next: ManifestReading
  /** The checked spore folder in staging. */
  readonly staged: string
}

/**
 * Records the row first, so a crash between the two never leaves a strain on disk that runs with
 * consent it was not given, then moves the folders; a failed move puts both back.
 */
async function place(placing: Placing): Promise<InstallOutcome> {
  const { deps, folders, archive, next, staged } = placing
  const { spore, strain, source } = archive
  const target = join(folders.installs, spore)
  const kept = join(folders.previous, spore)
  const before = strainRowOf(deps.store, spore)
  const current = (await exists(target)) ? await readManifest(target) : undefined
  const step = current ? 'upgradedTo' : 'installedAt'
  const what = reasonPart(archive.carried ? `${step}Carried` : step, { strain, source })
  const decision = decide({ what, next, current, wasEnabled: before?.enabled === true })
  if (!decision.ok) return refused('strain_guard_enabled', { spore })
  const previous = current
    ? { previousSourceId: before?.sourceId ?? null, previousStrain: before?.strain ?? null }
    : {}
  const row = {
    ...decision,
    sourceId: source,
    strain,
    previousSourceId: null,
    previousStrain: null,
    ...previous,
  }
  writeStrainRow(deps.store, spore, stateOf(row))
  let aside: string | undefined
  let moved = false
  try {
    await mkdir(folders.installs, { recursive: true })
    if (current !== undefined) {
      await mkdir(folders.previous, { recursive: true })
      if (await exists(kept)) aside = await setAside(folders, kept, spore)
      await rename(target, kept)
      moved = true
    }
    await rename(staged, target)
  } catch (error) {
    if (moved) await rename(kept, target)
    if (aside !== undefined) await rename(aside, kept)
    restoreStrainRow(deps.store, spore, before)
    throw error
  } finally {
    if (aside !== undefined) await discard(join(aside, '..')).catch(() => undefined)
  }
  deps.logger.info(current ? 'strain upgraded' : 'strain installed', {
    spore,
    strain,
    source,
    carried: archive.carried === true,
    enabled: row.enabled,
  })
  return { ok: true, value: { spore, strain, source, path: target } }
}

function stateOf(row: StrainRow & { readonly ok?: true }): StrainRow {
  const { enabled, reason, sourceId, strain, previousSourceId, previousStrain } = row
  return { enabled, reason, sourceId, strain, previousSourceId, previousStrain }
}

function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}
