import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Manifest, ManifestError, parseManifest } from '@mycelo/septum'
import { MANIFEST_MAX_BYTES } from '../../core/germination/manifest-reading.ts'
import { readYamlFile } from '../../core/germination/yaml-file.ts'
import { CATALOGUE_KEY } from '../../core/mycelium/setting-labels.ts'
import { done, refused, type ToolOutcome } from './outcome.ts'

/** A spore folder as the tool packs it: its validated manifest and the strain it is published as. */
export interface SporeFolder {
  readonly dir: string
  readonly manifest: Manifest
  readonly strain: string
  /**
   * What an index says of it: the manifest's description, read from the spore's English catalogue
   * when it names a key (septum 1.1), so an index never shows a reader a catalogue key.
   */
  readonly description: string | undefined
  /** The same in each language its catalogues word it in, by locale; none when written as a sentence. */
  readonly descriptions: Readonly<Record<string, string>> | undefined
}

/** A strain is a semantic version, as index.json keys them. */
const STRAIN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/

/**
 * Reads the spore's manifest exactly as a core would (septum's parseManifest) and settles its
 * strain: the one asked for, else its package.json version; a spore with neither is refused.
 */
export async function readSporeFolder(
  dir: string,
  strainAsked: string | undefined,
): Promise<ToolOutcome<SporeFolder>> {
  const read = await readYamlFile(join(dir, 'spore.yaml'), MANIFEST_MAX_BYTES)
  if (!read.ok) return refused('pack.manifestUnreadable', { dir, problem: read.problem })
  let manifest: Manifest
  try {
    manifest = parseManifest(read.value)
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error
    return refused('pack.manifestRefused', { dir, problem: error.message })
  }
  const strain = strainAsked ?? (await packageVersion(dir))
  if (strain === undefined) return refused('pack.noStrain', { spore: manifest.name })
  if (!STRAIN.test(strain)) return refused('pack.badStrain', { strain })
  const descriptions = await describedInCatalogues(dir, manifest.description)
  return done({
    dir,
    manifest,
    strain,
    description: descriptions?.en ?? manifest.description,
    descriptions,
  })
}

/** A description that names a key, as each of the spore's translations/<locale>.yaml words it. */
async function describedInCatalogues(
  dir: string,
  description: string | undefined,
): Promise<Record<string, string> | undefined> {
  if (description === undefined || !CATALOGUE_KEY.test(description)) return undefined
  const folder = join(dir, 'translations')
  const files = await readdir(folder).catch(() => [] as string[])
  const found: Record<string, string> = {}
  for (const file of files.filter((name) => name.endsWith('.yaml')).sort()) {
    const read = await readYamlFile(join(folder, file), MANIFEST_MAX_BYTES)
    if (!read.ok) continue
    let text: unknown = read.value
    for (const part of description.split('.')) {
      text = typeof text === 'object' && text !== null ? (text as Record<string, unknown>)[part] : undefined
    }
    if (typeof text === 'string') found[file.slice(0, -'.yaml'.length)] = text
  }
  return Object.keys(found).length > 0 ? found : undefined
}

/** The `version` of the spore's own package.json, when it has one that is a string. */
async function packageVersion(dir: string): Promise<string | undefined> {
  let text: string
  try {
    text = await readFile(join(dir, 'package.json'), 'utf8')
  } catch {
    return undefined
  }
  try {
    const version = (JSON.parse(text) as { version?: unknown }).version
    return typeof version === 'string' ? version : undefined
  } catch {
    return undefined
  }
}
