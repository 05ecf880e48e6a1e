import { writeSync } from 'node:fs'
import { isatty } from 'node:tty'
import type { Logger } from '@mycelo/septum'
import { type LogFileOptions, RotatingLogFile } from './log-file.ts'
import { type LogOutput, lineLogger } from './log-lines.ts'
import { Redactor } from './redaction.ts'

export type { LogOutput } from './log-lines.ts'

export interface LoggingOptions {
  /** A level name (trace, debug, info, warn, error, fatal, silent); `info` unless given. */
  readonly level?: string
  /** The file descriptor written when no `output` is given: standard output unless told otherwise. */
  readonly fd?: number
  /** Where lines go instead of `fd`. */
  readonly output?: LogOutput
  /** Human-readable lines rather than JSON; by default, when `fd` is a terminal. */
  readonly pretty?: boolean
}

/** The process's logging: its septum-shaped logger, and the secrets it must never print. */
export interface Logging {
  readonly logger: Logger
  /** Replaces the set of texts masked in every line, e.g. with the store's secret setting values. */
  setSecrets(values: Iterable<string>): void
  /**
   * From now on every line goes, as JSON and redacted, to a file rotated by size instead of the
   * terminal, which keeps only what the process prints itself (the report, the console chat).
   */
  toFile(options: LogFileOptions): void
  /** Hands every finished line, already redacted, to `listener` too (the page's live tail); answers the undo. */
  tap(listener: (line: string) => void): () => void
}

export function createLogging(options: LoggingOptions = {}): Logging {
  const fd = options.fd ?? 1
  const terminal = options.output === undefined && isatty(fd)
  let output: LogOutput = options.output ?? standardStream(fd)
  const pretty = options.pretty ?? terminal
  let format = pretty
    ? // Required only for a terminal: a bot whose logs go to a pipe or a file never loads it.
      (require('pino-pretty') as typeof import('pino-pretty')).prettyFactory({
        colorize: terminal,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname',
      })
    : undefined
  const redactor = new Redactor()
  const taps = new Set<(line: string) => void>()
  // Redacting the finished line, by value, catches a secret wherever a spore put it: in the
  // message, in meta, nested in an error, in a library's own debug text. Pretty printing runs
  // after, on the redacted line.
  const sink: LogOutput = {
    write: (line: string) => {
      const safe = redactor.redact(line)
      output.write(format ? format(safe) : safe)
      for (const listener of taps) listener(safe)
    },
  }
  const logger = lineLogger(options.level ?? 'info', sink)
  const toFile = (file: LogFileOptions) => {
    output = new RotatingLogFile(file)
    format = undefined
  }
  const tap = (listener: (line: string) => void) => {
    taps.add(listener)
    return () => void taps.delete(listener)
  }
  return { logger, setSecrets: (values) => redactor.use(values), toFile, tap }
}

/** The file descriptor, written synchronously; lines are dropped once their reader has gone (EPIPE). */
function standardStream(fd: number): LogOutput {
  return { write: (line: string) => writeOrDrop(fd, line) }
}

/**
 * Writes to a file descriptor, dropping the text when its reader has gone (EPIPE: the other end of
 * a pipe closed, as `| tee log` does on Ctrl-C): shutting down must not fail on a line nobody reads.
 */
export function writeOrDrop(fd: number, text: string): void {
  try {
    writeSync(fd, text)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EPIPE') throw error
  }
}
