// SQLite copies the write-ahead log back into the database file (a checkpoint) on the connection
// that commits, and first waits for the disk to hold all of the log written since the last one.
// Under a burst of writes — a crowd arriving, each newcomer a commit — that wait lands on the
// message path. So while the bot writes, the log is flushed to disk in the background as it grows
// (an asynchronous fdatasync, which Bun runs on a thread of its own), and the checkpoint finds
// little left to wait for. Nothing is promised that SQLite does not already promise: the data only
// reaches the disk earlier. An idle bot flushes nothing.
import type { Database } from 'bun:sqlite'
import { closeSync, fdatasync, openSync } from 'node:fs'

/** How often, at most, a busy store flushes its log in the background. */
export const FLUSH_EVERY_MS = 5
/**
 * Pages in the log before the committing connection checkpoints (SQLite's default is 1,000): with
 * the log already on disk, fewer checkpoints copy each much-written page fewer times. 16 MiB of log.
 */
export const CHECKPOINT_PAGES = 4_000

export interface LogFlusherOptions {
  /** The database file; its log is beside it, `-wal`. */
  readonly databasePath: string
  /** The flush itself; node's asynchronous fdatasync unless a test gives its own. */
  readonly flush?: (fd: number, done: () => void) => void
}

export class LogFlusher {
  readonly #logPath: string
  readonly #flush: (fd: number, done: () => void) => void
  #fd: number | undefined
  #last = Number.NEGATIVE_INFINITY
  #inFlight = 0
  #closed = false

  constructor(options: LogFlusherOptions) {
    this.#logPath = `${options.databasePath}-wal`
    this.#flush = options.flush ?? ((fd, done) => fdatasync(fd, () => done()))
  }

  /** Called by the writers on the message path: at most one background flush every few ms. */
  wrote(now = performance.now()): void {
    if (this.#closed || now - this.#last < FLUSH_EVERY_MS) return
    const fd = this.#open()
    if (fd === undefined) return
    this.#last = now
    this.#inFlight++
    // A flush that fails leaves the wait to SQLite's own, as it was: nothing to report.
    this.#flush(fd, () => {
      this.#inFlight--
      if (this.#closed) this.#release()
    })
  }

  /** Stops flushing; the log's descriptor is closed once no flush still uses it. */
  close(): void {
    this.#closed = true
    this.#release()
  }

  #release(): void {
    if (this.#inFlight > 0 || this.#fd === undefined) return
    closeSync(this.#fd)
    this.#fd = undefined
  }

  #open(): number | undefined {
    if (this.#fd !== undefined) return this.#fd
    try {
      this.#fd = openSync(this.#logPath, 'r')
    } catch {
      // No log yet: SQLite creates it with the first write, and the next call opens it.
    }
    return this.#fd
  }
}

const byConnection = new WeakMap<Database, LogFlusher>()

/** Gives a file-backed store's connection its flusher and checkpoint interval. */
export function attachLogFlusher(sqlite: Database, databasePath: string): LogFlusher {
  sqlite.run(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_PAGES}`)
  const flusher = new LogFlusher({ databasePath })
  byConnection.set(sqlite, flusher)
  return flusher
}

/** Notes a write on the message path; `sqlite` is the store's connection (`db.$client`). */
export function noteWrite(sqlite: Database): void {
  byConnection.get(sqlite)?.wrote()
}

/** The flusher of a store's connection, if it is file-backed. */
export function logFlusherOf(sqlite: Database): LogFlusher | undefined {
  return byConnection.get(sqlite)
}
