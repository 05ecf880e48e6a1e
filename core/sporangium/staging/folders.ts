// The folders an install works in: `staging` for archives being unpacked, `installs` the spores
// folder they land in, and `previous` beside it, where an upgrade keeps the strain it replaced.
// All three must be on one file system: every move between them is one rename.
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Logger } from '@mycelo/septum'
import type { MyceloConfig } from '../../boot/config.ts'

export interface SporangiumFolders {
  readonly installs: string
  readonly staging: string
  /** Never a spores folder: a kept strain is not discovered. */
  readonly previous: string
}

export function foldersOf(config: MyceloConfig): SporangiumFolders {
  const { installs, staging } = config.sporangia
  return { installs, staging, previous: join(dirname(installs), 'previous') }
}

/**
 * A new, empty folder under staging for one change of a spore, named `<spore>.<random>`: a dot is
 * never in a spore's name, so a leftover always says whose it was.
 */
export async function freshStage(folders: SporangiumFolders, spore: string): Promise<string> {
  await mkdir(folders.staging, { recursive: true })
  return mkdtemp(join(folders.staging, `${spore}.`))
}

/** Moves a folder out of the way into staging, whence it is deleted (or, after a crash, cleaned). */
export async function setAside(folders: SporangiumFolders, path: string, spore: string): Promise<string> {
  const aside = join(await freshStage(folders, spore), 'spore')
  await rename(path, aside)
  return aside
}

export async function discard(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true })
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return false
    throw error
  }
}

/**
 * At start, before germination: whatever an interrupted change left in staging goes, and where
 * that change was cut between its two renames (the installed folder moved aside, the other not
 * yet in place), the kept strain is put back, so no spore is ever found half there or gone. A
 * folder an operator removed by hand, with no change under way, is not brought back.
 */
export async function cleanFolders(folders: SporangiumFolders, logger: Logger): Promise<void> {
  const interrupted = new Set<string>()
  for (const entry of await entriesOf(folders.staging)) {
    interrupted.add(entry.split('.')[0]!)
    await discard(join(folders.staging, entry))
    logger.warn('removed what an interrupted install left in staging', { path: join(folders.staging, entry) })
  }
  for (const spore of await entriesOf(folders.previous)) {
    const installed = join(folders.installs, spore)
    if (!interrupted.has(spore) || (await exists(installed))) continue
    await mkdir(folders.installs, { recursive: true })
    await rename(join(folders.previous, spore), installed)
    logger.warn('put back the strain an interrupted upgrade or rollback had moved aside', { spore })
  }
}

async function entriesOf(folder: string): Promise<string[]> {
  try {
    return await readdir(folder)
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return []
    throw error
  }
}
