// Checkpoints move to a thread of their own at the first burst of writes, and only then.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, it } from 'bun:test'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import {
  BACKSTOP_PAGES,
  Checkpoints,
  checkpointsOf,
  HAND_OVER_PAGES,
  noteWrite,
} from '../../store/checkpoints.ts'
import { openStore } from '../../store/index.ts'
import { meetPrincipal } from '../../store/principals.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-checkpoints')
afterAll(() => scratch.remove())

const autocheckpoint = (sqlite: Database) =>
  (sqlite.query('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint

/** Frames written to the log since it last started: its header and frames, as SQLite lays them out. */
function framesInLog(path: string): number {
  const size = statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0
  return Math.max(0, Math.floor((size - 32) / (4096 + 24)))
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`)
    await Bun.sleep(10)
  }
}

describe('checkpoints', () => {
  it('start their thread at a burst of first contacts, which then copies the log into the file', async () => {
    const path = join(scratch.path, 'burst.db')
    const store = openStore({ path })
    try {
      const checkpoints = checkpointsOf(store.db.$client)!
      const meet = (i: number) =>
        meetPrincipal(store, { identity: { channel: 'chat', externalId: `n${i}` }, role: 'crowd' })
      for (let i = 0; i < 255; i++) meet(i)
      expect(checkpoints.threaded).toBe(false)
      meet(255)
      expect(checkpoints.threaded).toBe(true)
      // The committing connection now checkpoints only past the backstop…
      expect(autocheckpoint(store.db.$client)).toBe(BACKSTOP_PAGES)
      for (let i = 256; i < 600; i++) meet(i)
      // …so the newcomers' pages reach the database file through the thread alone.
      const before = statSync(path).size
      await until(() => statSync(path).size > before, 'the thread to copy the log into the file')
      const other = new Database(path, { readonly: true })
      expect(other.query('SELECT count(*) AS n FROM principals').get()).toEqual({ n: 600 })
      other.close()
    } finally {
      const checkpoints = checkpointsOf(store.db.$client)!
      store.close()
      await checkpoints.ended
    }
  })

  it('hand a long log over to the committing connection, whose next write starts it again', async () => {
    const store = openStore({ path: join(scratch.path, 'hand-over.db') })
    try {
      const sqlite = store.db.$client
      const checkpoints = checkpointsOf(sqlite)!
      const meet = (i: number) =>
        meetPrincipal(store, { identity: { channel: 'chat', externalId: `h${i}` }, role: 'crowd' })
      // Well past the hand-over length: about seven pages per newcomer.
      let i = 0
      while (i < 256 || framesInLog(store.path) < HAND_OVER_PAGES) meet(i++)
      expect(checkpoints.threaded).toBe(true)
      await until(() => checkpoints.handOverWaiting, 'the thread to copy the whole log and hand it over')
      // A write noted inside another one's transaction (a newcomer's conversation) cannot take over.
      expect(() => sqlite.transaction(() => noteWrite(sqlite))()).not.toThrow()
      expect(checkpoints.handOverWaiting).toBe(true)
      meet(i++)
      expect(checkpoints.handOverWaiting).toBe(false)
      // The write after the hand-over started the log again: it holds that write's pages alone.
      // (The thread may hold the checkpoint at that moment: then this one is busy, and asks again.)
      let answer = { busy: 1, log: -1 }
      while (answer.busy !== 0) {
        answer = sqlite.query('PRAGMA wal_checkpoint(PASSIVE)').get() as typeof answer
        if (answer.busy !== 0) await Bun.sleep(5)
      }
      const { log } = answer
      expect(log).toBeGreaterThan(0)
      expect(log).toBeLessThan(50)
    } finally {
      const checkpoints = checkpointsOf(store.db.$client)!
      store.close()
      await checkpoints.ended
    }
  })

  it('stay on the committing connection while writes are spread out', () => {
    const sqlite = new Database(':memory:')
    const checkpoints = new Checkpoints(sqlite, join(scratch.path, 'spread.db'))
    // 256 writes over six seconds is no burst; nor is the next 256 over the same.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 256; i++) checkpoints.wrote(round * 10_000 + i * 25)
    }
    expect(checkpoints.threaded).toBe(false)
    expect(autocheckpoint(sqlite)).toBe(1000)
    checkpoints.close()
    sqlite.close()
  })

  it('go back to the committing connection when the thread cannot open the database', async () => {
    const sqlite = new Database(':memory:')
    const checkpoints = new Checkpoints(sqlite, join(scratch.path, 'missing', 'folder', 'x.db'))
    for (let i = 0; i < 256; i++) checkpoints.wrote(i)
    expect(checkpoints.threaded).toBe(true)
    await until(() => !checkpoints.threaded, 'the thread to fail')
    expect(autocheckpoint(sqlite)).toBe(1000)
    checkpoints.close()
    sqlite.close()
  })

  it('are not kept for a snapshot, which has no log', () => {
    const store = openStore({ path: join(scratch.path, 'burst.db'), snapshot: true })
    expect(checkpointsOf(store.db.$client)).toBeUndefined()
    store.close()
  })
})
