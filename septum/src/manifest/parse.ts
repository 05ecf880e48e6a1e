import type { Manifest } from '../contract/manifest.ts'
import { ManifestError, manifestErrorFromIssue } from './error.ts'
import { manifestSchema } from './schema.ts'

/** Validates an already-parsed spore.yaml and applies its defaults; throws a ManifestError naming the field at fault. */
export function parseManifest(value: unknown): Manifest {
  const parsed = manifestSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const { issues } = parsed.error
  // A misspelt key usually explains the required field reported missing beside it, so it goes first.
  const first = issues.find((issue) => issue.code === 'unrecognized_keys') ?? issues[0]
  throw first === undefined ? new ManifestError('', 'the manifest is invalid') : manifestErrorFromIssue(first)
}

/** The ManifestError parseManifest would throw for this value, or undefined when it parses. */
export function manifestErrorOf(value: unknown): ManifestError | undefined {
  try {
    parseManifest(value)
    return undefined
  } catch (error) {
    if (error instanceof ManifestError) return error
    throw error
  }
}
