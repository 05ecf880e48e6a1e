// The one way an install writes files, so a test can make the disk fill up part-way through.
import { mkdir, open } from 'node:fs/promises'

/** A file being written; `close()` is always called, after the last write or a failed one. */
export interface StagedFile {
  write(chunk: Uint8Array): Promise<void>
  close(): Promise<void>
}

export interface StagingFiles {
  /** Creates the folder and any missing parent. */
  makeFolder(path: string): Promise<void>
  /** Creates a new file; one already there is a fault. */
  create(path: string): Promise<StagedFile>
}

/** The real file system. Modes are the core's own, whatever the archive said. */
export const diskFiles: StagingFiles = {
  async makeFolder(path) {
    await mkdir(path, { recursive: true, mode: 0o755 })
  },
  async create(path) {
    const handle = await open(path, 'wx', 0o644)
    return {
      async write(chunk) {
        let written = 0
        while (written < chunk.length) {
          const { bytesWritten } = await handle.write(chunk, written, chunk.length - written)
          written += bytesWritten
        }
      },
      close: () => handle.close(),
    }
  },
}
