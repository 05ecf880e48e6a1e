import { createHash } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { type StrainEntry, strainStatement } from '@mycelo/septum'
import { stringify } from 'yaml'
import { bundleModule } from './bundle.ts'
import { readIndex, withStrain, writeIndex } from './index-file.ts'
import { loadKey, type PublisherKey, sign } from './keys.ts'
import { done, type ToolOutcome } from './outcome.ts'
import { readSporeFolder } from './spore-folder.ts'
import { buildArchive } from './strain-archive.ts'

export interface PackRequest {
  /** The spore's folder, holding spore.yaml. */
  readonly dir: string
  /** The sporangium folder: index.json and archives/. */
  readonly out: string
  /** The publisher's private key file; without it the strain is published unsigned. */
  readonly keyFile?: string
  /** Overrides the spore's package.json version. */
  readonly strain?: string
  /** The sporangium's name: required to create index.json, renames it otherwise. */
  readonly name?: string
  /** When it was published; now unless given. */
  readonly published?: Date
}

export interface Packed {
  readonly spore: string
  readonly strain: string
  readonly archive: string
  readonly size: number
  readonly sha256: string
  readonly signed: boolean
}

/**
 * Publishes one strain of a spore into a sporangium folder. Every refusal comes before anything is
 * written; then the archive is placed, and the index last, so an index never names a missing archive.
 */
export async function pack(request: PackRequest): Promise<ToolOutcome<Packed>> {
  const folder = await readSporeFolder(request.dir, request.strain)
  if (!folder.ok) return folder
  const { manifest, strain } = folder.value
  let key: PublisherKey | undefined
  if (request.keyFile !== undefined) {
    const loaded = await loadKey(request.keyFile)
    if (!loaded.ok) return loaded
    key = loaded.value
  }
  const index = await readIndex(request.out)
  if (!index.ok) return index
  const bundle = await bundleModule(request.dir, manifest)
  if (!bundle.ok) return bundle
  const archive = await buildArchive({ dir: request.dir, name: manifest.name, bundle: bundle.value })
  if (!archive.ok) return archive

  const bytes = archive.value
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const relative = `archives/${manifest.name}-${strain}.tgz`
  const entry: StrainEntry = {
    archive: relative,
    size: bytes.length,
    sha256,
    septum: manifest.septum,
    published: (request.published ?? new Date()).toISOString(),
    ...(key !== undefined
      ? { signature: await sign(key, strainStatement(manifest.name, strain, sha256)) }
      : {}),
  }
  const updated = withStrain(index.value, request.name, {
    spore: manifest.name,
    kind: manifest.kind,
    description: shortDescription(folder.value.description),
    strain,
    entry,
    signedBy: key?.publicText,
  })
  if (!updated.ok) return updated

  await placeWhole(join(request.out, relative), bytes)
  // Beside the archive, for the GitHub releases convention: uploaded as the release's `.tgz.sig` asset.
  if (entry.signature !== undefined)
    await placeWhole(join(request.out, `${relative}.sig`), new TextEncoder().encode(`${entry.signature}\n`))
  // The start of that release's notes: GitHub has no field for a spore's kind or septum range.
  const notes = releaseNotes(manifest.kind, manifest.septum, shortDescription(folder.value.description))
  await placeWhole(join(request.out, `archives/${manifest.name}-${strain}.release.md`), notes)
  await writeIndex(request.out, updated.value)
  return done({
    spore: manifest.name,
    strain,
    archive: relative,
    size: bytes.length,
    sha256,
    signed: key !== undefined,
  })
}

/** The front matter a core reads off a GitHub release's notes to offer the strain before downloading it. */
function releaseNotes(kind: string, septum: string, description: string | undefined): Uint8Array {
  const front = stringify({ kind, septum, ...(description ? { description } : {}) })
  return new TextEncoder().encode(`---\n${front}---\n`)
}

async function placeWhole(target: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(target), { recursive: true })
  await writeFile(`${target}.partial`, bytes)
  await rename(`${target}.partial`, target)
}

/** index.json keeps a description to 500 characters; a longer one is cut, marked with an ellipsis. */
function shortDescription(description: string | undefined): string | undefined {
  if (description === undefined || description.length <= 500) return description
  return `${description.slice(0, 499)}…`
}
