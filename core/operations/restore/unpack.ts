// A backup archive read as hostile bytes: the sporangium's own scan (paths, links, devices, sizes,
// entry counts) refuses it whole before anything is written, then it is unpacked into staging and
// every file is checked against the manifest's hash.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { ArchiveLimits } from '../../sporangium/archive/scan.ts'
import { scanArchive } from '../../sporangium/archive/scan.ts'
import { diskFiles } from '../../sporangium/staging/files.ts'
import { unpackInto } from '../../sporangium/staging/unpack.ts'
import { type BackupManifest, MANIFEST_FILE, manifestSchema } from '../backup/format.ts'
import { type OperationRefusal, operationRefused } from '../refusal.ts'

/** A whole bot fits, a bomb does not: far above a spore's limits, still bounded. */
export const BACKUP_LIMITS: ArchiveLimits = { expandedBytes: 8 * 1024 ** 3, entries: 200_000 }

export type Unpacked = { readonly ok: true; readonly manifest: BackupManifest } | OperationRefusal

/** Unpacks `bytes` into the empty folder `stage` and proves it is a sound backup. */
export async function unpackBackup(options: {
  archive: string
  bytes: Uint8Array
  stage: string
  limits?: ArchiveLimits
}): Promise<Unpacked> {
  const { archive, bytes, stage } = options
  const limits = options.limits ?? BACKUP_LIMITS
  const spore = basename(archive)
  const scan = await scanArchive({ spore, bytes, limits })
  if (!scan.ok) return scan
  const unpacked = await unpackInto({ spore, bytes, limits, strip: 0, folder: stage, files: diskFiles })
  if (!unpacked.ok) return unpacked
  const manifestPath = join(stage, MANIFEST_FILE)
  if (!existsSync(manifestPath) || !statSync(manifestPath).isFile())
    return operationRefused('restoreNotBackup', { archive })
  let manifest: BackupManifest
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(manifestPath, 'utf8')))
    if (!parsed.success) return operationRefused('restoreNotBackup', { archive })
    manifest = parsed.data
  } catch {
    return operationRefused('restoreNotBackup', { archive })
  }
  const found = filesUnder(stage).filter((path) => path !== MANIFEST_FILE)
  for (const path of found) {
    const expected = manifest.files[path]
    if (expected === undefined) return operationRefused('restoreUnlisted', { archive, path })
    const digest = createHash('sha256')
      .update(readFileSync(join(stage, path)))
      .digest('hex')
    if (digest !== expected.sha256) return operationRefused('restoreTampered', { archive, path })
  }
  const missing = Object.keys(manifest.files).find((path) => !found.includes(path))
  if (missing !== undefined) return operationRefused('restoreMissing', { archive, path: missing })
  return { ok: true, manifest }
}

/** Every file under `folder`, as archive paths. */
function filesUnder(folder: string, prefix = ''): string[] {
  return readdirSync(join(folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`
    return entry.isDirectory() ? filesUnder(folder, path) : [path]
  })
}
