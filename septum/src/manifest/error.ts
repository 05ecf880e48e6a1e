import type { z } from 'zod'
import { shortened } from './wording.ts'

/** A manifest the schema refuses. `path` is the offending field, dotted (`commands.1.respond`), or '' for the whole document. */
export class ManifestError extends Error {
  override readonly name = 'ManifestError'
  readonly path: string

  constructor(path: string, problem: string) {
    super(path === '' ? problem : `${path}: ${problem}`)
    this.path = path
  }
}

/** The first problem zod found, as a ManifestError naming the field it concerns. */
export function manifestErrorFromIssue(issue: z.core.$ZodIssue): ManifestError {
  // An unknown key is reported on the mapping that holds it; the reader wants the key itself.
  const path =
    issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined
      ? [...issue.path, issue.keys[0]]
      : issue.path
  // A key is received text too: an unknown one may be as long as the author liked.
  return new ManifestError(path.map((segment) => shortened(String(segment))).join('.'), issue.message)
}
