// The write-ahead log is flushed in the background while the store writes, at most every few ms,
// through a descriptor of the log itself; an idle store flushes nothing.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, it } from 'bun:test'
import { fstatSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../../store/index.ts'
import { CHECKPOINT_PAGES, FLUSH_EVERY_MS, LogFlusher, logFlusherOf } from '../../store/log-flush.ts'
import { meetPrincipal } from '../../store/principals.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-log-flush')
afterAll(() => scratch.remove())

/** A flusher whose flushes are recorded and finished by the test. */
function recorded(databasePath: string) {
  const flushes: { fd: number; done: () => void }[] = []
  const flusher = new LogFlusher({ databasePath, flush: (fd, done) => flushes.push({ fd, done }) })
  return { flusher, flushes }
}

describe('the log flusher', () => {
  it('flushes the log file itself, at most once every few ms while writes go on', () => {
    const path = join(scratch.path, 'flushed.db')
    const store = openStore({ path })
    try {
      meetPrincipal(store, { identity: { channel: 'chat', externalId: 'ann' }, role: 'crowd' })
      const { flusher, flushes } = recorded(path)
      flusher.wrote(1000)
      expect(flushes).toHaveLength(1)
      expect(fstatSync(flushes[0]!.fd).ino).toBe(statSync(`${path}-wal`).ino)
      for (let t = 1000; t < 1000 + FLUSH_EVERY_MS; t++) flusher.wrote(t)
      expect(flushes).toHaveLength(1)
      flusher.wrote(1000 + FLUSH_EVERY_MS)
      expect(flushes).toHaveLength(2)
      for (const flush of flushes) flush.done()
      flusher.close()
    } finally {
      store.close()
    }
  })

  it('waits for a log that does not exist yet, and flushes it once SQLite has made it', () => {
    const path = join(scratch.path, 'later.db')
    const { flusher, flushes } = recorded(path)
    flusher.wrote(0)
    expect(flushes).toEqual([])
    const sqlite = new Database(path, { create: true })
    sqlite.run('PRAGMA journal_mode = WAL')
    sqlite.run('CREATE TABLE t (x)')
    flusher.wrote(1)
    expect(flushes).toHaveLength(1)
    flushes[0]!.done()
    flusher.close()
    sqlite.close()
  })

  it('flushes nothing once closed, and keeps the descriptor until a flush in flight is done', () => {
    const path = join(scratch.path, 'closing.db')
    const store = openStore({ path })
    try {
      meetPrincipal(store, { identity: { channel: 'chat', externalId: 'bob' }, role: 'crowd' })
      const { flusher, flushes } = recorded(path)
      flusher.wrote(0)
      const { fd, done } = flushes[0]!
      flusher.close()
      // Still open for the flush in flight…
      expect(fstatSync(fd).ino).toBe(statSync(`${path}-wal`).ino)
      flusher.wrote(FLUSH_EVERY_MS * 10)
      expect(flushes).toHaveLength(1)
      done()
      // …and closed once it is done.
      expect(() => fstatSync(fd)).toThrow()
    } finally {
      store.close()
    }
  })

  it('is given to a file-backed store with its checkpoint interval, not to a snapshot', () => {
    const store = openStore({ path: join(scratch.path, 'given.db') })
    const snapshot = openStore({ path: join(scratch.path, 'given.db'), snapshot: true })
    try {
      expect(logFlusherOf(store.db.$client)).toBeInstanceOf(LogFlusher)
      expect(store.db.$client.query('PRAGMA wal_autocheckpoint').get()).toEqual({
        wal_autocheckpoint: CHECKPOINT_PAGES,
      })
      expect(logFlusherOf(snapshot.db.$client)).toBeUndefined()
    } finally {
      snapshot.close()
      store.close()
    }
  })

  it('hears of every first contact, each one a commit', () => {
    const path = join(scratch.path, 'burst.db')
    const store = openStore({ path })
    try {
      // The store's own flusher, watched through the flush it was given by default.
      const flusher = logFlusherOf(store.db.$client)!
      const calls: number[] = []
      const wrote = flusher.wrote.bind(flusher)
      flusher.wrote = (now?: number) => {
        calls.push(now ?? performance.now())
        wrote(now)
      }
      for (let i = 0; i < 200; i++) {
        meetPrincipal(store, { identity: { channel: 'chat', externalId: `n${i}` }, role: 'crowd' })
      }
      expect(calls).toHaveLength(200)
      const other = new Database(path, { readonly: true })
      expect(other.query('SELECT count(*) AS n FROM principals').get()).toEqual({ n: 200 })
      other.close()
    } finally {
      store.close()
    }
  })
})
