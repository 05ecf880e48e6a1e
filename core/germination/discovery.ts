import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'

const MANIFEST = 'spore.yaml'

/**
 * Every immediate subfolder holding a spore.yaml, in each folder, sorted within a folder. A folder
 * that does not exist holds no spores: a fresh install has no data/spores yet.
 */
export async function discoverSporeDirs(folders: readonly string[]): Promise<string[]> {
  const found: string[] = []
  for (const folder of folders) {
    const root = resolve(folder)
    let entries: string[]
    try {
      entries = await readdir(root)
    } catch (error) {
      if (isMissing(error)) continue
      throw error
    }
    for (const entry of entries.sort()) {
      const dir = join(root, entry)
      if (await isFile(join(dir, MANIFEST))) found.push(dir)
    }
  }
  return found
}

export function manifestPath(dir: string): string {
  return join(dir, MANIFEST)
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch (error) {
    if (isMissing(error)) return false
    throw error
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
