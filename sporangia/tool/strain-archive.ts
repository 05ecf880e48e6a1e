import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { create } from 'tar'
import { BUNDLE_FILE } from './bundle.ts'
import { done, refused, type ToolOutcome } from './outcome.ts'

/** Files an author ships beside the code, when the spore folder has them. */
const NOTICES = /^(?:readme|licen[cs]e|copying|notice)(?:\.[a-z]+)?$/i

/** Every entry stamped with one date, so packing the same spore twice gives the same bytes. */
const STAMP = new Date('2000-01-01T00:00:00Z')

export interface ArchiveRequest {
  readonly dir: string
  readonly name: string
  /** The bundled module; undefined for a spore that has none. */
  readonly bundle: string | undefined
}

/**
 * The strain's gzipped tar: one top-level folder named after the spore, holding spore.yaml, the
 * bundle, translations/ and the notices.
 */
export async function buildArchive(request: ArchiveRequest): Promise<ToolOutcome<Uint8Array>> {
  const staging = await mkdtemp(join(tmpdir(), 'sporangium-pack-'))
  try {
    const laid = await layOut(request, join(staging, request.name))
    if (!laid.ok) return laid
    const file = join(staging, 'archive.tgz')
    await create(
      { file, cwd: staging, gzip: true, portable: true, mtime: STAMP, noDirRecurse: true },
      laid.value,
    )
    return done(new Uint8Array(await readFile(file)))
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

/** Copies what the strain holds into `root` with fixed modes; answers its entries, sorted, folders first. */
async function layOut(request: ArchiveRequest, root: string): Promise<ToolOutcome<string[]>> {
  const files = new Map<string, Uint8Array>()
  files.set('spore.yaml', await readFile(join(request.dir, 'spore.yaml')))
  if (request.bundle !== undefined) files.set(BUNDLE_FILE, new TextEncoder().encode(request.bundle))
  for (const entry of await readdir(request.dir, { withFileTypes: true })) {
    if (entry.isFile() && NOTICES.test(entry.name))
      files.set(entry.name, await readFile(join(request.dir, entry.name)))
  }
  const translations = await collect(request.dir, 'translations')
  if (!translations.ok) return translations
  for (const [path, bytes] of translations.value) files.set(path, bytes)

  const folders = new Set<string>([request.name])
  for (const path of files.keys()) {
    for (let parent = dirname(path); parent !== '.'; parent = dirname(parent))
      folders.add(`${request.name}/${parent}`)
  }
  for (const folder of [...folders].sort()) {
    await mkdir(join(dirname(root), folder), { recursive: true })
    await chmod(join(dirname(root), folder), 0o755)
  }
  for (const [path, bytes] of files) {
    await writeFile(join(root, path), bytes)
    await chmod(join(root, path), 0o644)
  }
  const entries = [...folders, ...[...files.keys()].map((path) => `${request.name}/${path}`)]
  return done(entries.sort(byPath))
}

/** Every regular file under `sub`, by path relative to `dir`; a link or a device is refused, not followed. */
async function collect(dir: string, sub: string): Promise<ToolOutcome<Map<string, Uint8Array>>> {
  const found = new Map<string, Uint8Array>()
  const info = await lstat(join(dir, sub)).catch(() => undefined)
  if (info === undefined) return done(found)
  if (!info.isDirectory()) return refused('pack.notRegular', { path: sub })
  for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
    const path = `${sub}/${entry.name}`
    if (entry.isDirectory()) {
      const nested = await collect(dir, path)
      if (!nested.ok) return nested
      for (const [inner, bytes] of nested.value) found.set(inner, bytes)
    } else if (entry.isFile()) {
      found.set(path, await readFile(join(dir, path)))
    } else {
      return refused('pack.notRegular', { path })
    }
  }
  return done(found)
}

/** Code-point order, so the archive's entry order does not depend on the locale packing it. */
function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
