import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { verifyStrainSignature } from '../../core/sporangium/signature.ts'
import { readIndex } from './index-file.ts'
import { done, refused, type ToolOutcome, type ToolRefusal } from './outcome.ts'
import { contentProblems } from './strain-contents.ts'

/** One strain as verify found it: what it is, and what is wrong with it (nothing when it holds). */
export interface StrainCheck {
  readonly spore: string
  readonly strain: string
  readonly problems: readonly ToolRefusal[]
}

/**
 * Re-checks every strain index.json names against its archive: the file is there, inside the
 * folder, of the size and SHA-256 the index says, holding that spore's manifest under one folder,
 * and signed by the publisher key when there is one.
 */
export async function verify(out: string): Promise<ToolOutcome<StrainCheck[]>> {
  const index = await readIndex(out)
  if (!index.ok) return index
  if (index.value === undefined) return refused('verify.noIndex', { dir: out })
  const key = index.value.publisher?.key
  const checks: StrainCheck[] = []
  for (const [spore, entry] of Object.entries(index.value.spores)) {
    for (const [strain, published] of Object.entries(entry.strains)) {
      const problems: ToolRefusal[] = []
      const bytes = await archiveBytes(out, published.archive)
      if (typeof bytes === 'string') problems.push({ key: bytes, params: { archive: published.archive } })
      else {
        const sha256 = createHash('sha256').update(bytes).digest('hex')
        if (bytes.length !== published.size)
          problems.push({ key: 'verify.size', params: { expected: published.size, actual: bytes.length } })
        if (sha256 !== published.sha256)
          problems.push({ key: 'verify.digest', params: { expected: published.sha256, actual: sha256 } })
        problems.push(...(await contentProblems(bytes, spore, published.septum)))
      }
      problems.push(...(await signatureProblems({ key, spore, strain, entry: published })))
      checks.push({ spore, strain, problems })
    }
  }
  return done(checks)
}

/** The archive's bytes, or the key of why it cannot be read; a path leading out of the folder is not followed. */
async function archiveBytes(out: string, archive: string): Promise<Uint8Array | string> {
  const root = resolve(out)
  const path = resolve(join(root, archive))
  const inside = relative(root, path)
  if (inside.startsWith(`..${sep}`) || inside === '..') return 'verify.outside'
  try {
    return new Uint8Array(await readFile(path))
  } catch {
    return 'verify.missing'
  }
}

interface SignatureCheck {
  readonly key: string | undefined
  readonly spore: string
  readonly strain: string
  readonly entry: { readonly sha256: string; readonly signature?: string }
}

/**
 * The signature covers the index's digest, which the archive's bytes were held to above; checked by
 * the bot's own install check, so what verify passes is what a bot accepts.
 */
async function signatureProblems({ key, spore, strain, entry }: SignatureCheck): Promise<ToolRefusal[]> {
  if (entry.signature === undefined) return key === undefined ? [] : [{ key: 'verify.unsigned' }]
  if (key === undefined) return [{ key: 'verify.noPublisherKey' }]
  const holds = await verifyStrainSignature({
    publisherKey: key,
    spore,
    strain,
    sha256: entry.sha256,
    signature: entry.signature,
  })
  return holds ? [] : [{ key: 'verify.badSignature' }]
}
