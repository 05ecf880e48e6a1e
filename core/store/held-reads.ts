// The read every message from someone not in memory makes (core/store/people.ts) used to be most
// of its cost in starting and ending SQLite's read transaction: two fcntl calls on the -shm file and
// the log's header checks, about 5 µs of a 10 µs read on a 100,000-person store. This keeps one
// read transaction open on a read-only connection of its own and reads in it for as long as nothing
// was committed since it began, which the log's index header in the -shm file tells at a glance:
// every commit, by any connection in any process, rewrites that header before it returns.
// (https://sqlite.org/walformat.html: the wal-index header, two copies of 48 bytes, then the
// checkpoint's progress.) A read after a commit starts a new transaction, as every read did before.
import { Database, type SQLQueryBindings } from 'bun:sqlite'
import { CHECKPOINT_PAGES } from './log-flush.ts'

/**
 * The longest one transaction is kept: a checkpoint that must wait for every reader (another
 * process's `wal_checkpoint(RESTART)`) waits at most this long for this one.
 */
export const HOLD_MS = 100

/**
 * Past this many frames in the log no transaction is kept: a reader holding a place in the log
 * keeps SQLite from starting the log again at its beginning, so a log this long is left free for
 * the checkpoint at CHECKPOINT_PAGES to copy whole and the next write to start it afresh.
 */
export const HOLD_BELOW_FRAMES = CHECKPOINT_PAGES / 2

/** What SQLite writes in the header's first field (WAL_VERSION): a layout this code knows. */
const WAL_INDEX_VERSION = 3007000
/** Two copies of the 48-byte header, then nBackfill (frames already copied into the database). */
const HEADER_WORDS = 24
const BACKFILLED_WORD = 24
const FRAMES_WORD = 4

export interface HeldReadsOptions {
  readonly path: string
  /** Frames in the log past which no transaction is held; HOLD_BELOW_FRAMES unless given. */
  readonly holdBelowFrames?: number
  /** How long one transaction may be held; HOLD_MS unless given. */
  readonly holdMs?: number
}

/** One prepared read on the held connection, run with positional values, rows as arrays. */
export type HeldStatement<Row extends unknown[]> = (...values: SQLQueryBindings[]) => Row[]

export class HeldReads {
  readonly #sqlite: Database
  readonly #holdBelowFrames: number
  readonly #holdMs: number
  /** The -shm file's first words as mapped, or undefined where they cannot be read (reads go plain). */
  readonly #index: Uint32Array | undefined
  /** The header as it was just before the held transaction began. */
  readonly #seen = new Uint32Array(HEADER_WORDS)
  readonly #begin
  readonly #end
  #held = false
  #heldSince = 0
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(options: HeldReadsOptions) {
    this.#holdBelowFrames = options.holdBelowFrames ?? HOLD_BELOW_FRAMES
    this.#holdMs = options.holdMs ?? HOLD_MS
    this.#sqlite = new Database(options.path, { readonly: true })
    try {
      this.#sqlite.run('PRAGMA busy_timeout = 5000')
      this.#sqlite.run(`PRAGMA mmap_size = ${256 * 2 ** 20}`)
      // Opens the log and its index, so the -shm file exists to be mapped.
      this.#sqlite.query('SELECT count(*) FROM sqlite_master').get()
      this.#begin = this.#sqlite.prepare('BEGIN')
      this.#end = this.#sqlite.prepare('COMMIT')
      this.#index = mapIndex(`${options.path}-shm`)
    } catch (error) {
      this.#sqlite.close()
      throw error
    }
  }

  /**
   * A statement on this connection, run in the held transaction; `plain` is the same read on the
   * store's own connection, for a read right after a commit (see `#ready`).
   */
  prepare<Row extends unknown[]>(sql: string, plain: HeldStatement<Row>): HeldStatement<Row> {
    const statement = this.#sqlite.prepare(sql)
    return (...values) => (this.#ready() ? (statement.values(...values) as Row[]) : plain(...values))
  }

  /** Whether a transaction is held now (for tests). */
  get holding(): boolean {
    return this.#held
  }

  close(): void {
    this.#release()
    this.#sqlite.close()
  }

  /**
   * Whether this read may go in the held transaction, holding a new one if none is held: only when
   * nothing was committed since the previous read. A read right after a commit goes to the store's
   * own connection instead: this one would first read again from the log every page the commit
   * changed, a system call each, which the writer still has in memory (with every message a
   * newcomer's, that halved first contact).
   */
  #ready(): boolean {
    const index = this.#index
    if (index === undefined) return false
    const unchanged = this.#unchanged(index)
    if (this.#held) {
      if (unchanged && performance.now() - this.#heldSince < this.#holdMs) return true
      this.#release()
    }
    if (unchanged && this.#steady(index)) {
      this.#hold()
      return true
    }
    this.#seen.set(index.subarray(0, HEADER_WORDS))
    return false
  }

  #unchanged(index: Uint32Array): boolean {
    const seen = this.#seen
    for (let i = 0; i < HEADER_WORDS; i++) if (index[i] !== seen[i]) return false
    return true
  }

  /** The header is as seen at the previous read: the snapshot the next statement takes is the latest. */
  #hold(): void {
    this.#begin.run()
    this.#held = true
    this.#heldSince = performance.now()
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined
      this.#release()
    }, this.#holdMs)
    this.#timer.unref?.()
  }

  /** The header is whole (both copies agree), of a known layout, and the log short enough to hold. */
  #steady(index: Uint32Array): boolean {
    const seen = this.#seen
    if (seen[0] !== WAL_INDEX_VERSION) return false
    for (let i = 0; i < HEADER_WORDS / 2; i++) if (seen[i] !== seen[i + HEADER_WORDS / 2]) return false
    return seen[FRAMES_WORD]! < this.#holdBelowFrames || index[BACKFILLED_WORD] === seen[FRAMES_WORD]
  }

  #release(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
    if (!this.#held) return
    this.#held = false
    this.#end.run()
  }
}

/** The -shm file's header and checkpoint words, mapped shared; undefined where it cannot be. */
function mapIndex(path: string): Uint32Array | undefined {
  try {
    const bytes = Bun.mmap(path, { shared: true, size: (BACKFILLED_WORD + 1) * 4 })
    if (bytes.byteLength < (BACKFILLED_WORD + 1) * 4 || bytes.byteOffset % 4 !== 0) return undefined
    return new Uint32Array(bytes.buffer, bytes.byteOffset, BACKFILLED_WORD + 1)
  } catch {
    return undefined
  }
}

/** Keyed by the store's own connection, as the log flusher is. */
const byConnection = new WeakMap<Database, HeldReads>()

/** Gives a file-backed store's connection its held reads; undefined where they cannot be had. */
export function attachHeldReads(sqlite: Database, path: string): HeldReads {
  const held = new HeldReads({ path })
  byConnection.set(sqlite, held)
  return held
}

/** The held reads of a store's connection (`db.$client`), if it is file-backed. */
export function heldReadsOf(sqlite: Database): HeldReads | undefined {
  return byConnection.get(sqlite)
}
