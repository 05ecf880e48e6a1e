import { type Manifest, parseManifest } from '@mycelo/septum'
import { Parser, type ReadEntry } from 'tar'
import { parse } from 'yaml'
import type { ToolRefusal } from './outcome.ts'

/** A manifest is a page of YAML; reading more of an entry than this would be reading something else. */
const MANIFEST_MAX_BYTES = 64 * 1024

export interface StrainContents {
  /** Every entry's path and tar type (`File`, `Directory`, `SymbolicLink`, …), in archive order. */
  readonly entries: readonly { readonly path: string; readonly type: string }[]
  /** The text of `<spore>/spore.yaml`, when the archive has one of a manifest's size. */
  readonly manifest: string | undefined
}

/** Lists a strain archive's entries and reads its manifest, strictly: a corrupt archive rejects. */
export function strainContents(bytes: Uint8Array, spore: string): Promise<StrainContents> {
  const entries: { path: string; type: string }[] = []
  const chunks: Buffer[] = []
  let manifestSeen = false
  let manifestBytes = 0
  return new Promise((resolve, reject) => {
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        entries.push({ path: entry.path, type: entry.type })
        if (entry.path === `${spore}/spore.yaml` && entry.type === 'File') {
          manifestSeen = true
          entry.on('data', (chunk: Buffer) => {
            manifestBytes += chunk.length
            if (manifestBytes <= MANIFEST_MAX_BYTES) chunks.push(chunk)
          })
        }
        // A parser waits on each entry until it is read: every one is let flow.
        entry.resume()
      },
    })
    parser.on('error', reject)
    parser.on('end', () => {
      const fits = manifestSeen && manifestBytes <= MANIFEST_MAX_BYTES
      resolve({ entries, manifest: fits ? Buffer.concat(chunks).toString('utf8') : undefined })
    })
    parser.end(Buffer.from(bytes))
  })
}

/**
 * What is wrong with a strain's contents for the index entry naming it: one top-level folder named
 * after the spore, only files and folders, and a manifest of that spore declaring the index's range.
 */
export async function contentProblems(
  bytes: Uint8Array,
  spore: string,
  septum: string,
): Promise<ToolRefusal[]> {
  let contents: StrainContents
  try {
    contents = await strainContents(bytes, spore)
  } catch (error) {
    return [{ key: 'verify.unreadable', params: { problem: (error as Error).message } }]
  }
  const problems: ToolRefusal[] = []
  const outside = contents.entries.find((entry) => !entry.path.startsWith(`${spore}/`))
  if (outside !== undefined) problems.push({ key: 'verify.layout', params: { spore, path: outside.path } })
  const odd = contents.entries.find((entry) => entry.type !== 'File' && entry.type !== 'Directory')
  if (odd !== undefined)
    problems.push({ key: 'verify.entryType', params: { path: odd.path, type: odd.type } })
  if (contents.manifest === undefined) return [...problems, { key: 'verify.noManifest', params: { spore } }]
  let manifest: Manifest
  try {
    manifest = parseManifest(parse(contents.manifest, { maxAliasCount: 100 }))
  } catch (error) {
    return [
      ...problems,
      { key: 'verify.manifest', params: { problem: (error as Error).message.split('\n')[0]! } },
    ]
  }
  if (manifest.name !== spore) problems.push({ key: 'verify.otherSpore', params: { name: manifest.name } })
  if (manifest.septum !== septum)
    problems.push({ key: 'verify.septum', params: { archive: manifest.septum, index: septum } })
  return problems
}
