import { basename } from 'node:path'
import { type Manifest, ManifestError, PLUGIN_KINDS, type PluginKind, parseManifest } from '@mycelo/septum'
import { type Discovery, manifestPath } from './discovery.ts'
import { excerpt } from './excerpt.ts'
import { readYamlFile } from './yaml-file.ts'

/** A manifest is a page of YAML; anything far bigger is not one, and is refused before parsing. */
export const MANIFEST_MAX_BYTES = 64 * 1024

/** What a raw `name` must look like to stand for a refused spore; otherwise its folder names it. */
const RAW_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/

/** One spore.yaml as read from disk: the manifest, or why it was refused, plus what the raw document says. */
export interface ManifestReading {
  readonly dir: string
  /** The manifest's name; the raw `name` or the folder name when the manifest is refused. */
  readonly name: string
  readonly kind: PluginKind | undefined
  /** Read raw so an enforcing inhibitor with a refused manifest still closes the channel it guards. */
  readonly enforcing: boolean
  readonly manifest: Manifest | undefined
  readonly refusal: string | undefined
}

export async function readManifest(dir: string): Promise<ManifestReading> {
  const read = await readYamlFile(manifestPath(dir), MANIFEST_MAX_BYTES)
  if (!read.ok) return refused(dir, undefined, `spore.yaml cannot be read: ${read.problem}`)
  const raw = read.value
  try {
    const manifest = parseManifest(raw)
    return {
      dir,
      name: manifest.name,
      kind: manifest.kind,
      enforcing: manifest.kind === 'inhibitor' && manifest.enforcing,
      manifest,
      refusal: undefined,
    }
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error
    // The message already leads with the offending field.
    return refused(dir, raw, `manifest refused: ${error.message}`)
  }
}

/** Every discovered spore read, in discovery order; one discovery could not look into is refused under its folder name. */
export function readDiscovered(discovery: Discovery): Promise<ManifestReading[]> {
  return Promise.all(
    discovery.dirs.map((dir) => {
      const reason = discovery.refused.get(dir)
      return reason === undefined
        ? readManifest(dir)
        : refused(dir, undefined, `spore folder cannot be read: ${reason}`)
    }),
  )
}

function refused(dir: string, raw: unknown, refusal: string): ManifestReading {
  const document = isRecord(raw) ? raw : {}
  // Read loosely: `kind: Inhibitor` beside `enforcing: true` must still close the channel it guards.
  const declared = typeof document.kind === 'string' ? document.kind.trim().toLowerCase() : undefined
  const kind = PLUGIN_KINDS.find((candidate) => candidate === declared)
  // A refused document's name goes into the report as is: only a well-formed one may stand in.
  const name =
    typeof document.name === 'string' && RAW_NAME.test(document.name) ? document.name : basename(dir)
  return {
    dir,
    name,
    kind,
    enforcing: kind === 'inhibitor' && isTruthy(document.enforcing),
    manifest: undefined,
    // Every refusal is bounded here, whatever quoted the file: yaml, the schema, the file system.
    refusal: excerpt(refusal),
  }
}

// Leans towards enforcing: a misspelt boolean on a security filter must not leave a channel open.
function isTruthy(value: unknown): boolean {
  if (value === true || value === 1) return true
  return typeof value === 'string' && /^(true|yes|on)$/i.test(value.trim())
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
