import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

/** A spore's files as germination reads them: the parsed manifest and each translations/<locale>.yaml. */
export interface SporeFiles {
  readonly folder: string
  readonly manifest: unknown
  readonly catalogs: Readonly<Record<string, unknown>>
}

/**
 * The folder holding spore.yaml: `from` itself, or the nearest folder above it. `from` may be a
 * path or a file URL (a test's own `import.meta.url`), so a test finds its spore wherever it runs
 * from, compiled into build/ or not.
 */
export function sporeFolder(from: string | URL): string {
  const start = from instanceof URL || from.startsWith('file:') ? fileURLToPath(from) : resolve(from)
  let folder = existsSync(start) && statSync(start).isDirectory() ? start : dirname(start)
  for (;;) {
    if (existsSync(join(folder, 'spore.yaml'))) return folder
    const parent = dirname(folder)
    if (parent === folder) throw new Error(`no spore.yaml in ${start} or any folder above it`)
    folder = parent
  }
}

/** Reads spore.yaml and every translations/*.yaml; a file that is not YAML throws naming it. */
export function readSporeFiles(folder: string): SporeFiles {
  const manifest = readYaml(join(folder, 'spore.yaml'))
  const catalogs: Record<string, unknown> = {}
  const translations = join(folder, 'translations')
  if (existsSync(translations)) {
    for (const file of readdirSync(translations).sort()) {
      if (file.endsWith('.yaml'))
        catalogs[file.slice(0, -'.yaml'.length)] = readYaml(join(translations, file))
    }
  }
  return { folder, manifest, catalogs }
}

function readYaml(path: string): unknown {
  try {
    return parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  }
}
