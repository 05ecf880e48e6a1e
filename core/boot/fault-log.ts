// A fault (not a refusal an operator can act on) is said in one sentence where they look, and
// written whole, stack included, to a log they can open or send: a stack reaches the screen only
// when they ask for it (--debug).
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { loadConfig } from './config.ts'
import { createLogging } from './log.ts'
import { RotatingLogFile } from './log-file.ts'

/** Where a fault is written: the log file mycelo.yaml names, else beside the database. */
export function faultLogFile(env: Readonly<Record<string, string | undefined>>): {
  file: string
  maxBytes: number
  keep: number
} {
  try {
    const { log, database } = loadConfig({ env })
    if (log.file !== undefined) return { file: log.file, maxBytes: log.maxBytes, keep: log.keep }
    const folder = database === ':memory:' ? tmpdir() : dirname(database)
    return { file: join(folder, 'faults.log'), maxBytes: log.maxBytes, keep: log.keep }
  } catch {
    // A configuration that cannot be read is reported as such elsewhere; the fault still goes somewhere.
    return { file: join(tmpdir(), 'mycelo-faults.log'), maxBytes: 10 * 1024 * 1024, keep: 1 }
  }
}

/** The error's first line, for the sentence; its whole text, for the log. */
export function faultParts(error: unknown): { summary: string; detail: string } {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  const summary = (error instanceof Error ? error.message : String(error))
    .split('\n')[0]!
    .replace(/[.\s]+$/, '')
  return { summary, detail }
}

/** Writes the fault whole to its log; answers the file, or undefined when even that failed. */
export function recordFault(
  error: unknown,
  options: { readonly env: Readonly<Record<string, string | undefined>>; readonly surface: string },
): string | undefined {
  const target = faultLogFile(options.env)
  try {
    const logging = createLogging({ level: 'error', output: new RotatingLogFile(target) })
    logging.logger.error('unexpected fault', { surface: options.surface, error: faultParts(error).detail })
    return target.file
  } catch {
    return undefined
  }
}
