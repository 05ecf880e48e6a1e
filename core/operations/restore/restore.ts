// A backup back on a machine: validated whole first (the archive, its hashes, the Mycelo and the
// database it came from), then refused while a bot holds the database or something would be
// overwritten, then moved into place with renames. Anything refused changes nothing.
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parse } from 'yaml'
import { ConfigFileError, DEFAULT_CONFIG_FILE, loadConfig, type MyceloConfig } from '../../boot/config.ts'
import { heldBy } from '../../boot/instance-refusal.ts'
import { foldersOf } from '../../sporangium/staging/folders.ts'
import { acquireInstanceLock } from '../../store/instance-lock.ts'
import { NewerDatabaseError, openStore, StoreError } from '../../store/open.ts'
import { keepPrivate, privateFolder } from '../../store/private-files.ts'
import { type BackupManifest, PARTS } from '../backup/format.ts'
import { MYCELO_VERSION } from '../backup/version.ts'
import { type OperationRefusal, operationRefused } from '../refusal.ts'
import { type Move, occupied, placeAll } from './placement.ts'
import { unpackBackup } from './unpack.ts'

export type Restored =
  | { readonly ok: true; readonly config: MyceloConfig; readonly manifest: BackupManifest }
  | OperationRefusal

export interface RestoreOptions {
  readonly archive: string
  /** Where MYCELO_CONFIG is read from: the restored mycelo.yaml goes where it points. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** An existing mycelo.yaml is replaced by the backup's only when this says so (kept aside). */
  readonly replaceConfig?: boolean
}

export async function restoreBackup(options: RestoreOptions): Promise<Restored> {
  const archive = resolve(options.archive)
  if (!existsSync(archive)) return operationRefused('restoreNoArchive', { archive: options.archive })
  const target = resolve(options.env.MYCELO_CONFIG ?? DEFAULT_CONFIG_FILE)
  const folder = dirname(target)
  // Beside the targets, so the final moves are renames on one file system.
  const stage = join(folder, `.mycelo-restore-${process.pid}-${Date.now()}`)
  const stagedConfig = `${stage}.yaml`
  // The archive's database holds every secret: staged where only the operator can read it.
  privateFolder(stage)
  try {
    const unpacked = await unpackBackup({ archive: options.archive, bytes: readFileSync(archive), stage })
    if (!unpacked.ok) return unpacked
    const { manifest } = unpacked
    if (Bun.semver.order(manifest.mycelo, MYCELO_VERSION) > 0)
      return operationRefused('restoreNewerMycelo', {
        archive: options.archive,
        theirs: manifest.mycelo,
        ours: MYCELO_VERSION,
      })
    if (manifest.config) copyFileSync(join(stage, PARTS.config), stagedConfig)
    else writeFileSync(stagedConfig, '{}\n')
    let config: MyceloConfig
    try {
      config = loadConfig({ path: stagedConfig, env: {} })
    } catch (error) {
      if (!(error instanceof ConfigFileError)) throw error
      return operationRefused('restoreConfigRefused', { reason: error.message })
    }
    const databaseRefusal = checkDatabase(join(stage, PARTS.database), `${options.archive}:${PARTS.database}`)
    if (databaseRefusal !== undefined) return databaseRefusal
    // Before the lock, which makes the database's folder: a refusal here leaves the folder as it was.
    const replaced = manifest.config ? configReplacement(target, stagedConfig) : undefined
    if (replaced !== undefined && !options.replaceConfig)
      return operationRefused('restoreConfigExists', { path: target, keys: replaced.keys.join(', ') })
    const lock = acquireInstanceLock(config.database)
    if (!lock.ok) return operationRefused('restoreHeld', { reason: heldBy(lock.holder, config) })
    try {
      const moves = movesOf({ stage, stagedConfig, target, config, manifest })
      // A WAL left beside the database would be replayed onto the restored one: it counts too.
      const paths = [...moves.map((move) => move.to).filter((to) => to !== target), `${config.database}-wal`]
      const taken = paths.find(occupied)
      if (taken !== undefined) return operationRefused('restoreNotFresh', { path: taken })
      // The file it replaces is kept beside it: an operator's own edits are never lost to a restore.
      if (replaced !== undefined) copyFileSync(target, `${target}.before-restore`)
      placeAll(moves)
      // Whatever modes the archive carried, the restored database is the operator's alone again.
      keepPrivate(config.database, `${config.database}-wal`, `${config.database}-shm`)
    } finally {
      lock.release()
    }
    return { ok: true, config: { ...config, file: manifest.config ? target : undefined }, manifest }
  } finally {
    rmSync(stage, { recursive: true, force: true })
    rmSync(stagedConfig, { force: true })
  }
}

/** The store's own refusal of a database written by a newer Mycelo, or of one it cannot open. */
function checkDatabase(path: string, named: string): OperationRefusal | undefined {
  try {
    openStore({ path, snapshot: true }).close()
    return undefined
  } catch (error) {
    // Named as the operator knows it, not by the staging folder it was checked in.
    if (error instanceof NewerDatabaseError || error instanceof StoreError)
      return operationRefused('restoreDatabaseRefused', { reason: error.message.replace(path, named) })
    throw error
  }
}

/**
 * What the backup's mycelo.yaml would change in the one already at `target`: the top-level keys
 * whose values differ (or that only one has), or undefined when there is none or they are equal.
 */
function configReplacement(target: string, staged: string): { readonly keys: string[] } | undefined {
  if (!existsSync(target)) return undefined
  const read = (path: string): Record<string, unknown> => {
    try {
      const value: unknown = parse(readFileSync(path, 'utf8'))
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {}
    } catch {
      // An unreadable file here is still a file a restore would overwrite: every key counts.
      return { '(unreadable)': true }
    }
  }
  const mine = read(target)
  const theirs = read(staged)
  const keys = [...new Set([...Object.keys(mine), ...Object.keys(theirs)])]
    .filter((key) => JSON.stringify(mine[key]) !== JSON.stringify(theirs[key]))
    .sort()
  if (keys.length === 0 && readFileSync(target, 'utf8') === readFileSync(staged, 'utf8')) return undefined
  return { keys: keys.length === 0 ? ['(comments and layout only)'] : keys }
}

function movesOf(options: {
  stage: string
  stagedConfig: string
  target: string
  config: MyceloConfig
  manifest: BackupManifest
}): Move[] {
  const { stage, config, manifest } = options
  const folders = foldersOf(config)
  const moves: Move[] = [
    { from: join(stage, PARTS.database), to: config.database },
    { from: join(stage, PARTS.installs), to: folders.installs },
    { from: join(stage, PARTS.previous), to: folders.previous },
  ].filter((move) => existsSync(move.from))
  if (manifest.config) moves.push({ from: options.stagedConfig, to: options.target })
  return moves
}
