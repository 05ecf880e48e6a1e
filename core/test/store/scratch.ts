import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/** Where the core's tests keep their real files; git-ignored. */
const root = join(import.meta.dir, '..', '..', '..', '.test-tmp')

/** A fresh folder for one test file; `remove()` deletes it and everything in it. */
export function scratchFolder(prefix: string): { path: string; remove(): void } {
  mkdirSync(root, { recursive: true })
  const path = mkdtempSync(join(root, `${prefix}-`))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}
