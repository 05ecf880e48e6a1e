import { closeSync, existsSync, fstatSync, renameSync, writeSync } from 'node:fs'
import { openPrivate } from '../store/private-files.ts'

export interface LogFileOptions {
  /** An absolute path; its folder is created when missing. */
  readonly file: string
  /** Past this size the file is rotated before the next line is written. */
  readonly maxBytes: number
  /** Rotated files kept beside it, `<file>.1` the newest; 0 starts the file afresh instead. */
  readonly keep: number
}

/**
 * A log file rotated by size, written synchronously line by line. The writer is ours rather than a
 * pino transport (pino-roll and the like run in a worker or write asynchronously): every line must
 * go through the redactor first, and a line logged just before the process exits must not be lost.
 */
export class RotatingLogFile {
  readonly #options: LogFileOptions
  #fd: number
  #size: number
  /** A failing disk is said once on standard error; it never throws into whoever was logging. */
  #failed = false

  constructor(options: LogFileOptions) {
    this.#options = options
    // Redacted, but still who said what to the bot: the operator's alone.
    this.#fd = openPrivate(options.file, 'a')
    this.#size = fstatSync(this.#fd).size
  }

  write(text: string): void {
    const bytes = Buffer.byteLength(text)
    if (this.#size > 0 && this.#size + bytes > this.#options.maxBytes) {
      try {
        this.#rotate()
      } catch (error) {
        this.#report(error)
        // Tried again only once another maxBytes has been written, not at every line.
        this.#size = 0
      }
    }
    try {
      writeSync(this.#fd, text)
      this.#size += bytes
    } catch (error) {
      this.#report(error)
    }
  }

  #report(error: unknown): void {
    if (this.#failed) return
    this.#failed = true
    writeSync(2, `cannot write the log file ${this.#options.file}: ${(error as Error).message}\n`)
  }

  close(): void {
    closeSync(this.#fd)
  }

  /** `<file>.n` → `<file>.n+1` from the oldest kept down, the file itself → `<file>.1`, then a fresh file. */
  #rotate(): void {
    const { file, keep } = this.#options
    closeSync(this.#fd)
    try {
      for (let n = keep - 1; n >= 1; n--) {
        if (existsSync(`${file}.${n}`)) renameSync(`${file}.${n}`, `${file}.${n + 1}`)
      }
      if (keep > 0) renameSync(file, `${file}.1`)
    } finally {
      // Even when a rename failed the file is open again: lines keep coming, in one file if need be.
      this.#fd = openPrivate(file, keep > 0 ? 'a' : 'w')
    }
    this.#size = 0
  }
}
