import { readdirSync, readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, relative } from 'node:path'

const SPORES = join(import.meta.dir, '..', '..', '..', 'spores')

/**
 * A spore's files as the core reads them (manifest, src/, translations/; tests and package files
 * stay behind): a first-party spore by name, or any spore folder by absolute path.
 */
export function realSpore(nameOrDir: string): Record<string, string> {
  const dir = isAbsolute(nameOrDir) ? nameOrDir : join(SPORES, nameOrDir)
  const files: Record<string, string> = { 'spore.yaml': readFileSync(join(dir, 'spore.yaml'), 'utf8') }
  for (const sub of ['src', 'translations']) {
    for (const path of walk(join(dir, sub))) files[relative(dir, path)] = readFileSync(path, 'utf8')
  }
  return files
}

function walk(dir: string): string[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names.flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}
