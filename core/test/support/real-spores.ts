import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const SPORES = join(import.meta.dir, '..', '..', '..', 'spores')

/** A first-party spore's files (manifest, src/, translations/), ready for startTestCore. */
export function realSpore(name: string): Record<string, string> {
  const dir = join(SPORES, name)
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
