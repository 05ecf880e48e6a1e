import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { type Manifest, ManifestError, PLUGIN_KINDS, type PluginKind, parseManifest } from '@mycelo/septum'
import { parse } from 'yaml'
import { manifestPath } from './discovery.ts'
import { faultText } from './fault.ts'

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
  let raw: unknown
  try {
    raw = parse(await readFile(manifestPath(dir), 'utf8'))
  } catch (error) {
    return refused(dir, undefined, `spore.yaml cannot be read: ${faultText(error)}`)
  }
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

function refused(dir: string, raw: unknown, refusal: string): ManifestReading {
  const document = isRecord(raw) ? raw : {}
  const kind = PLUGIN_KINDS.find((candidate) => candidate === document.kind)
  const name =
    typeof document.name === 'string' && document.name.trim() !== '' ? document.name : basename(dir)
  return {
    dir,
    name,
    kind,
    enforcing: kind === 'inhibitor' && isTruthy(document.enforcing),
    manifest: undefined,
    refusal,
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
