// The checkpoint thread (see checkpoints.ts): its own connection copies the log back into the
// database while the bot's connection goes on committing. A passive checkpoint never waits for
// the writer, and the writer never waits for it.
import { Database } from 'bun:sqlite'
import { HAND_OVER } from './checkpoints.ts'

declare const self: Worker

/** How often to look while there is work, and at most while there is none. */
const BUSY_MS = 20
const IDLE_MS = 2_000
/** How long to wait for the committing connection to take a hand-over, before going on alone. */
const HAND_OVER_WAIT_MS = 200

let connection: Database | undefined
let timer: ReturnType<typeof setTimeout> | undefined
let wait = BUSY_MS
let shared: Int32Array | undefined
let handOverPages = Number.POSITIVE_INFINITY

interface Checkpointed {
  /** Pages in the log, and how many of them are in the database file now. */
  log: number
  checkpointed: number
}

function tidy(): void {
  if (!connection) return
  const { log, checkpointed } = connection
    .query<Checkpointed, []>('PRAGMA wal_checkpoint(PASSIVE)')
    .get() as Checkpointed
  if (shared && log >= handOverPages && checkpointed === log) {
    // All of a long log is copied: the committing connection copies what came since and restarts it.
    Atomics.store(shared, HAND_OVER, 1)
    Atomics.wait(shared, HAND_OVER, 1, HAND_OVER_WAIT_MS)
  }
  // Nothing left behind: look less and less often, so a quiet bot is not woken for nothing.
  wait = log > 0 && checkpointed < log ? BUSY_MS : Math.min(wait * 2, IDLE_MS)
  timer = setTimeout(tidy, wait)
}

type Message = { type: 'open'; path: string; shared: Int32Array; handOverPages: number } | { type: 'close' }

self.onmessage = (event: MessageEvent<Message>) => {
  const message = event.data
  if (message.type === 'open') {
    shared = message.shared
    handOverPages = message.handOverPages
    connection = new Database(message.path)
    // The same settings as the bot's connection: the copy waits for the disk as SQLite requires.
    connection.run('PRAGMA busy_timeout = 5000')
    connection.run('PRAGMA synchronous = NORMAL')
    connection.run('PRAGMA wal_autocheckpoint = 0')
    tidy()
    return
  }
  clearTimeout(timer)
  connection?.close()
  connection = undefined
  process.exit(0)
}
