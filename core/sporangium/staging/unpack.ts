// The second pass over an archive already read once: the same scan, now writing each entry under
// a fresh staging folder. Paths were checked by the first pass and are checked again here.
import { join, relative, resolve, sep } from 'node:path'
import {
  type ArchiveLimits,
  type EntrySink,
  type Scan,
  type ScannedEntry,
  scanArchive,
} from '../archive/scan.ts'
import type { StagedFile, StagingFiles } from './files.ts'

export interface UnpackOptions {
  readonly spore: string
  readonly bytes: Uint8Array
  readonly limits: ArchiveLimits
  /** Leading segments to drop: 1 when the spore sits under one top-level folder. */
  readonly strip: 0 | 1
  /** The fresh staging folder, already created. */
  readonly folder: string
  readonly files: StagingFiles
}

/** Writes the archive's folders and files under `folder`; a fault of the disk throws. */
export async function unpackInto(options: UnpackOptions): Promise<Scan> {
  const { folder, files, strip } = options
  let open: StagedFile | undefined
  const target = (entry: ScannedEntry): string | undefined => {
    const segments = entry.segments.slice(strip)
    if (segments.length === 0) return undefined
    const path = resolve(folder, ...segments)
    // Defence in depth: nothing the checks let through may resolve outside the staging folder.
    const inside = relative(folder, path)
    if (inside.startsWith(`..${sep}`) || inside === '..' || resolve(folder, inside) !== path)
      throw new Error(`archive entry ${entry.path} resolves outside staging`)
    return path
  }
  const sink: EntrySink = {
    async folder(entry) {
      const path = target(entry)
      if (path !== undefined) await files.makeFolder(path)
    },
    async file(entry) {
      const path = target(entry)
      if (path === undefined) throw new Error(`archive entry ${entry.path} has no name once unpacked`)
      await files.makeFolder(join(path, '..'))
      open = await files.create(path)
    },
    async data(chunk) {
      await open?.write(chunk)
    },
    async close() {
      const file = open
      open = undefined
      await file?.close()
    },
  }
  try {
    return await scanArchive({ ...options, sink })
  } finally {
    await open?.close().catch(() => undefined)
  }
}
