// Copies a folder into the backup's staging, hashing each file as it goes, so the manifest says
// exactly what was copied.
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface FileRecord {
  readonly sha256: string
  readonly bytes: number
}

/** Files recorded so far, by their path inside the archive. */
export type FileRecords = Map<string, FileRecord>

export function recordFile(records: FileRecords, stage: string, path: string): void {
  const bytes = readFileSync(join(stage, path))
  records.set(path, { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length })
}

/**
 * Copies `source` (when it exists) to `<stage>/<into>`: files and folders only. A link in an
 * installed spore is a fault: a restore would refuse the archive, so the backup says so now.
 */
export function copyTree(options: {
  source: string
  stage: string
  into: string
  records: FileRecords
}): void {
  const { source, stage, into, records } = options
  if (!existsSync(source)) return
  mkdirSync(join(stage, into), { recursive: true })
  for (const name of readdirSync(source).sort()) {
    const from = join(source, name)
    const to = `${into}/${name}`
    const stat = lstatSync(from)
    if (stat.isDirectory()) copyTree({ source: from, stage, into: to, records })
    else if (stat.isFile()) {
      copyFileSync(from, join(stage, to))
      recordFile(records, stage, to)
    } else throw new Error(`${from} is neither a file nor a folder; a backup holds only those`)
  }
}
