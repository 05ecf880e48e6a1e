// SQLite copies the write-ahead log back into the database file (a checkpoint) on the connection
// that commits, every thousand pages, and each copy waits for the disk twice. Under a burst of
// writes — a crowd arriving, each newcomer a commit — that wait lands on the message path. Once a
// store sees such a burst, its checkpoints move to a thread of their own with its own connection;
// until then none is started, so an idle bot carries no second JavaScript heap.
//
// While the bot keeps writing, the thread can never copy the whole log (new pages arrive during
// each copy), and SQLite starts the log afresh only once all of it is copied. So when the log has
// grown long, the thread hands over: the committing connection copies the few pages written since
// the thread's last pass, before its next write, and that write starts the log again.
import type { Database } from 'bun:sqlite'

/** How many writes make a burst, and within how long. */
const BURST_WRITES = 256
const BURST_MS = 5_000
/**
 * With the thread running, the committing connection still checkpoints past this many pages: a
 * thread that falls behind a long burst, or fails, cannot let the log grow without bound.
 */
export const BACKSTOP_PAGES = 10_000
/** SQLite's own interval, restored if the thread fails. */
const DEFAULT_PAGES = 1_000
/** How long the log may grow before the thread hands over (see above). */
export const HAND_OVER_PAGES = 2_000

/** The slots of the buffer the thread and the committing connection share. */
export const HAND_OVER = 0

export class Checkpoints {
  readonly #sqlite: Database
  readonly #path: string
  #writes = 0
  #burstStarted = 0
  #thread: Worker | undefined
  /** Set to 1 by the thread when the log is long and its pass is done; cleared once taken over. */
  #shared: Int32Array | undefined
  #closed = false
  #ended: Promise<void> = Promise.resolve()

  constructor(sqlite: Database, path: string) {
    this.#sqlite = sqlite
    this.#path = path
  }

  /** Whether checkpoints run on their own thread now. */
  get threaded(): boolean {
    return this.#thread !== undefined
  }

  /** Called by the writers on the message path: cheap, and starts the thread at the first burst. */
  wrote(now = Date.now()): void {
    if (this.#shared) {
      this.#takeOver()
      return
    }
    if (this.#closed) return
    if (this.#writes++ === 0) this.#burstStarted = now
    if (this.#writes < BURST_WRITES) return
    const burst = now - this.#burstStarted <= BURST_MS
    this.#writes = 0
    if (burst) this.#start()
  }

  /** Whether the thread has copied a long log and waits for the committing connection to take over. */
  get handOverWaiting(): boolean {
    return this.#shared !== undefined && Atomics.load(this.#shared, HAND_OVER) === 1
  }

  /** Settles once the thread, if one was started, has ended. */
  get ended(): Promise<void> {
    return this.#ended
  }

  /** Ends the thread, if one runs; it closes its own connection first. */
  close(): void {
    this.#closed = true
    this.#thread?.postMessage({ type: 'close' })
    this.#release()
  }

  #takeOver(): void {
    const shared = this.#shared!
    // Inside a transaction SQLite refuses to checkpoint (a write noted alongside another one): the
    // next write outside one takes over instead.
    if (Atomics.load(shared, HAND_OVER) !== 1 || this.#sqlite.inTransaction) return
    this.#sqlite.run('PRAGMA wal_checkpoint(PASSIVE)')
    Atomics.store(shared, HAND_OVER, 0)
    Atomics.notify(shared, HAND_OVER)
  }

  /** Lets a thread waiting for a hand-over go on (to its end), and forgets it. */
  #release(): void {
    if (this.#shared) {
      Atomics.store(this.#shared, HAND_OVER, 0)
      Atomics.notify(this.#shared, HAND_OVER)
    }
    this.#thread = undefined
    this.#shared = undefined
  }

  #start(): void {
    const thread = new Worker(new URL('./checkpoint-thread.ts', import.meta.url).href)
    // The bot's end is not held up by a thread that only tidies the log.
    thread.unref()
    this.#ended = new Promise((done) => thread.addEventListener('close', () => done()))
    thread.addEventListener('error', () => {
      if (this.#thread !== thread) return
      this.#release()
      if (!this.#closed) this.#sqlite.run(`PRAGMA wal_autocheckpoint = ${DEFAULT_PAGES}`)
    })
    const shared = new Int32Array(new SharedArrayBuffer(4))
    thread.postMessage({ type: 'open', path: this.#path, shared, handOverPages: HAND_OVER_PAGES })
    this.#sqlite.run(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`)
    this.#thread = thread
    this.#shared = shared
  }
}

const byConnection = new WeakMap<Database, Checkpoints>()

/** Gives a file-backed store its checkpoints; an in-memory one has no log to tidy. */
export function attachCheckpoints(sqlite: Database, path: string): Checkpoints {
  const checkpoints = new Checkpoints(sqlite, path)
  byConnection.set(sqlite, checkpoints)
  return checkpoints
}

/** Notes a write on the message path; `sqlite` is the store's connection (`db.$client`). */
export function noteWrite(sqlite: Database): void {
  byConnection.get(sqlite)?.wrote()
}

/** The checkpoints of a store's connection, if it is file-backed. */
export function checkpointsOf(sqlite: Database): Checkpoints | undefined {
  return byConnection.get(sqlite)
}
