// One archive of a bot, which may be running: the database through SQLite's own copy, the
// installed spores and the strains kept aside, mycelo.yaml, and a manifest that hashes them all.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { SEPTUM_VERSION } from '@mycelo/septum'
import { create } from 'tar'
import type { MyceloConfig } from '../../boot/config.ts'
import { foldersOf } from '../../sporangium/staging/folders.ts'
import { privateFile } from '../../store/private-files.ts'
import { type OperationRefusal, operationRefused } from '../refusal.ts'
import { type BackupManifest, MANIFEST_FILE, PARTS } from './format.ts'
import { snapshotDatabase } from './snapshot.ts'
import { copyTree, type FileRecords, recordFile } from './tree.ts'
import { MYCELO_VERSION } from './version.ts'

export type Backup =
  | { readonly ok: true; readonly file: string; readonly manifest: BackupManifest }
  | OperationRefusal

/** Writes the archive to `file` (whole, or not at all: it is written aside, then renamed). */
export async function writeBackup(options: { config: MyceloConfig; file: string }): Promise<Backup> {
  const { config, file } = options
  if (config.database === ':memory:' || !existsSync(config.database))
    return operationRefused('backupNoDatabase', { database: config.database })
  const stage = mkdtempSync(join(tmpdir(), 'mycelo-backup-'))
  const partial = `${file}.partial`
  try {
    const records: FileRecords = new Map()
    mkdirSync(join(stage, dirname(PARTS.database)), { recursive: true })
    snapshotDatabase(config.database, join(stage, PARTS.database))
    recordFile(records, stage, PARTS.database)
    if (config.file !== undefined) {
      copyFileSync(config.file, join(stage, PARTS.config))
      recordFile(records, stage, PARTS.config)
    }
    const folders = foldersOf(config)
    copyTree({ source: folders.installs, stage, into: PARTS.installs, records })
    copyTree({ source: folders.previous, stage, into: PARTS.previous, records })
    const manifest: BackupManifest = {
      format: 'mycelo-backup',
      formatVersion: 1,
      mycelo: MYCELO_VERSION,
      septum: SEPTUM_VERSION,
      createdAt: new Date().toISOString(),
      config: config.file !== undefined,
      files: Object.fromEntries([...records].sort(([a], [b]) => (a < b ? -1 : 1))),
    }
    writeFileSync(join(stage, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
    const entries = [MANIFEST_FILE, ...new Set([...records.keys()].map((path) => path.split('/')[0]!))]
    // Every secret is in it, in plain: the archive is the operator's alone from its first byte.
    privateFile(partial)
    await create({ gzip: true, file: partial, cwd: stage, portable: true, noDirRecurse: false }, entries)
    renameSync(partial, file)
    return { ok: true, file, manifest }
  } finally {
    rmSync(partial, { force: true })
    rmSync(stage, { recursive: true, force: true })
  }
}
