// How a scanned archive's entries make one spore folder: the spore's files at the root, or under
// exactly one top-level folder, with spore.yaml a file at the top of them.
import { type Refusal, refused } from '../../mycelium/outcome.ts'
import type { ScannedEntry } from './scan.ts'

const MANIFEST = 'spore.yaml'

/** How many leading segments are dropped when the archive is unpacked: 0 or 1. */
export type Layout = { readonly ok: true; readonly strip: 0 | 1 } | Refusal

export function layoutOf(spore: string, entries: readonly ScannedEntry[]): Layout {
  const refuse = (key: string, params: Record<string, unknown> = {}) => refused(key, { spore, ...params })
  const kinds = new Map<string, ScannedEntry['kind']>()
  const folded = new Set<string>()
  for (const entry of entries) {
    if (entry.segments.length === 0) continue
    const key = entry.segments.join('/')
    // `a` and `a/` are one path, and so are `A` and `a` where the disk ignores case or Unicode
    // form: whichever came second would overwrite the first there.
    const fold = key.normalize('NFC').toLowerCase()
    if (folded.has(fold)) return refuse('archive_duplicate', { path: entry.path })
    folded.add(fold)
    kinds.set(key, entry.kind)
  }
  // Every folder an entry lies in must be one, not a file of the same name.
  for (const entry of entries) {
    for (let depth = 1; depth < entry.segments.length; depth++) {
      const parent = entry.segments.slice(0, depth).join('/')
      if (kinds.get(parent) === 'file') return refuse('archive_file_as_folder', { path: entry.path })
    }
  }
  const tops = new Set(
    entries.filter((entry) => entry.segments.length > 0).map((entry) => entry.segments[0]!),
  )
  const strip = kinds.has(MANIFEST) || tops.size !== 1 ? 0 : 1
  if (strip === 1 && kinds.get([...tops][0]!) === 'file') return refuse('archive_manifest_missing')
  const manifest = strip === 0 ? MANIFEST : `${[...tops][0]}/${MANIFEST}`
  const found = kinds.get(manifest)
  if (found === 'folder') return refuse('archive_manifest_not_file')
  if (found === undefined) return refuse(tops.size > 1 ? 'archive_top_level' : 'archive_manifest_missing')
  return { ok: true, strip }
}
