import { statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Logger } from '@mycelo/septum'
import { faultText } from './fault.ts'
import { StartupRefusal } from './refusal.ts'

const MANIFEST = 'spore.yaml'

/** Something an operator should know about the set of spores that refuses no spore. */
export type GerminationWarning =
  /** A `spores:` folder that does not exist (or is no folder): it holds no spores. */
  | { readonly kind: 'missingFolder'; readonly folder: string }
  /** A spore folder set aside: another folder, found first, holds a spore of the same name. */
  | { readonly kind: 'nameClash'; readonly folder: string; readonly name: string; readonly kept: string }

/** What the spores folders hold. */
export interface Discovery {
  /** Every folder holding a spore.yaml, or one that could not be looked into, in folder order, sorted within a folder. */
  readonly dirs: readonly string[]
  /** Why each folder of `dirs` that could not be looked into (a link loop, no permission) was refused. */
  readonly refused: ReadonlyMap<string, string>
  readonly warnings: readonly GerminationWarning[]
}

/**
 * Every immediate subfolder holding a spore.yaml, in each folder. An entry that cannot be looked
 * into is refused on its own: it must show in the report rather than take the bot down. A folder
 * that does not exist holds no spores (a fresh install has no data/spores yet) and is a warning,
 * logged as found. A folder that exists but cannot be read refuses the start: an enforcing filter
 * in it would otherwise be silently left out.
 */
export async function discoverSpores(
  folders: readonly string[],
  logger: Logger,
  /** Folders the core creates when it first installs a spore: their absence is no mistake. */
  awaited: readonly string[] = [],
): Promise<Discovery> {
  const dirs: string[] = []
  const refused = new Map<string, string>()
  const warnings: GerminationWarning[] = []
  for (const folder of folders) {
    const root = resolve(folder)
    let entries: string[]
    try {
      entries = await readdir(root)
    } catch (error) {
      if (!isMissing(error))
        throw new StartupRefusal(`spores folder ${root} cannot be read: ${faultText(error)}`)
      if (awaited.some((folder) => resolve(folder) === root)) continue
      warnings.push({ kind: 'missingFolder', folder: root })
      logger.warn('spores folder does not exist; no spore is read from it', { folder: root })
      continue
    }
    for (const entry of entries.sort()) {
      const dir = join(root, entry)
      const found = manifestIn(dir)
      if (found === 'none') continue
      dirs.push(dir)
      if (found !== 'file') refused.set(dir, found.refusal)
    }
  }
  return { dirs, refused, warnings }
}

export function manifestPath(dir: string): string {
  return join(dir, MANIFEST)
}

/**
 * Whether the entry is a spore: 'file' when its spore.yaml is one, 'none' when it has none, or why
 * it is refused. Asked once per folder entry, synchronously: an asynchronous call's round trip
 * cost more than the look itself at a start with hundreds of spores.
 */
function manifestIn(dir: string): 'file' | 'none' | { refusal: string } {
  try {
    const found = statSync(manifestPath(dir))
    return found.isFile() ? 'file' : { refusal: `${MANIFEST} is not a regular file` }
  } catch (error) {
    if (isMissing(error)) return 'none'
    return { refusal: faultText(error) }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
