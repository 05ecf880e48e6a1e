// Files that hold secrets in plain (the database and its WAL, backups, exports with secrets, the
// log) are the operator's alone: created 0600 whatever the umask, in folders created 0700.
import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'

export const PRIVATE_FILE = 0o600
export const PRIVATE_FOLDER = 0o700

/**
 * Makes `folder` (and any parent it has to create) 0700. A folder that already exists keeps its
 * mode: it may be the operator's home, which is not ours to close.
 */
export function privateFolder(folder: string): void {
  const first = mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER })
  if (first === undefined) return
  // The umask may have taken bits off each folder made; every one of them is set again.
  let path = first
  chmodSync(path, PRIVATE_FOLDER)
  for (const part of relative(first, folder).split(sep).filter(Boolean)) {
    path = join(path, part)
    chmodSync(path, PRIVATE_FOLDER)
  }
}

/** Creates `file` empty if absent, in a private folder, and makes it 0600 either way. */
export function privateFile(file: string): void {
  privateFolder(dirname(file))
  closeSync(openSync(file, 'a', PRIVATE_FILE))
  chmodSync(file, PRIVATE_FILE)
}

/** Opens `file` for `flags` and makes it 0600 through the open descriptor. */
export function openPrivate(file: string, flags: 'a' | 'w'): number {
  privateFolder(dirname(file))
  const fd = openSync(file, flags, PRIVATE_FILE)
  fchmodSync(fd, PRIVATE_FILE)
  return fd
}

/** Sets 0600 on each of `files` that exists (a WAL and SHM appear only once SQLite wants them). */
export function keepPrivate(...files: readonly string[]): void {
  for (const file of files) if (existsSync(file)) chmodSync(file, PRIVATE_FILE)
}
