// The message path's person read keeps one read transaction open on a connection of its own while
// nothing is committed (core/store/held-reads.ts). Whatever commits — the store's own connection,
// another one, another process — the very next read must see it; a held transaction must never
// keep the log from starting over, nor a checkpoint that waits for readers from finishing.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, it } from 'bun:test'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { HeldReads, heldReadsOf } from '../../store/held-reads.ts'
import { openStore } from '../../store/index.ts'
import { personByIdentity, setDisplayName } from '../../store/people.ts'
import { meetPrincipal } from '../../store/principals.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-held-reads')
afterAll(() => scratch.remove())

const ada = { channel: 'chat', externalId: 'ada' }

describe('the held person read', () => {
  it('holds its transaction between reads while nothing is committed, and reads right after a commit without it', () => {
    const store = openStore({ path: join(scratch.path, 'holds.db') })
    const id = meetPrincipal(store, { identity: { ...ada, displayName: 'Ada' }, role: 'newcomer' }).id
    const held = heldReadsOf(store.db.$client)!
    // The first read after the commit goes to the store's own connection, the next ones are held.
    expect(personByIdentity(store, ada)?.identities).toEqual([{ ...ada, displayName: 'Ada' }])
    expect(held.holding).toBe(false)
    expect(personByIdentity(store, ada)?.displayName).toBe('Ada')
    expect(held.holding).toBe(true)
    expect(personByIdentity(store, { channel: 'chat', externalId: 'nobody' })).toBeUndefined()
    expect(held.holding).toBe(true)
    setDisplayName(store, id, 'Adeline')
    expect(personByIdentity(store, ada)?.displayName).toBe('Adeline')
    expect(held.holding).toBe(false)
    expect(personByIdentity(store, ada)?.displayName).toBe('Adeline')
    expect(held.holding).toBe(true)
    store.close()
  })

  it('sees at the very next read what the store’s own connection, another one and another process commit', () => {
    const path = join(scratch.path, 'fresh.db')
    const store = openStore({ path })
    const id = meetPrincipal(store, { identity: ada, role: 'newcomer' }).id
    expect(personByIdentity(store, ada)?.displayName).toBeUndefined()
    const other = openStore({ path })
    for (let i = 0; i < 50; i++) {
      // Alternately the store's connection and another, each commit after a held read.
      expect(personByIdentity(store, ada)?.displayName).toBe(i === 0 ? undefined : `Ada ${i - 1}`)
      expect(heldReadsOf(store.db.$client)!.holding).toBe(true)
      setDisplayName(i % 2 === 0 ? store : other, id, `Ada ${i}`)
      expect(personByIdentity(store, ada)?.displayName).toBe(`Ada ${i}`)
    }
    other.close()
    const bob = { channel: 'chat', externalId: 'bob' }
    expect(personByIdentity(store, bob)).toBeUndefined()
    const script = `
      const { openStore } = await import(${JSON.stringify(join(import.meta.dir, '../../store/index.ts'))})
      const { meetPrincipal } = await import(${JSON.stringify(join(import.meta.dir, '../../store/principals.ts'))})
      const { setDisplayName } = await import(${JSON.stringify(join(import.meta.dir, '../../store/people.ts'))})
      const store = openStore({ path: ${JSON.stringify(path)} })
      const { id } = meetPrincipal(store, { identity: { channel: 'chat', externalId: 'bob' }, role: 'newcomer' })
      setDisplayName(store, id, 'Robert')
      store.close()`
    const child = Bun.spawnSync([process.execPath, '-e', script], { stderr: 'pipe' })
    expect(child.stderr.toString()).toBe('')
    expect(child.exitCode).toBe(0)
    expect(personByIdentity(store, bob)).toMatchObject({ displayName: 'Robert', roles: ['newcomer'] })
    store.close()
  })

  it('lets go of its transaction when idle, so a checkpoint that waits for every reader finishes', async () => {
    const path = join(scratch.path, 'idle.db')
    const store = openStore({ path })
    meetPrincipal(store, { identity: ada, role: 'newcomer' })
    personByIdentity(store, ada)
    personByIdentity(store, ada)
    const held = heldReadsOf(store.db.$client)!
    expect(held.holding).toBe(true)
    const other = new Database(path)
    other.run('PRAGMA busy_timeout = 0')
    // While it is held, a checkpoint that must restart the log cannot: the reader is in the way.
    other.run("INSERT INTO roles (name, builtin) VALUES ('late', 0)")
    const busy = () => other.query<{ busy: number }, []>('PRAGMA wal_checkpoint(RESTART)').get()!.busy
    expect(busy()).toBe(1)
    await Bun.sleep(200)
    expect(held.holding).toBe(false)
    expect(busy()).toBe(0)
    other.close()
    store.close()
  })

  it('never keeps the log from starting over: its file stays the size of a checkpoint', () => {
    const path = join(scratch.path, 'log.db')
    const writer = new Database(path, { create: true })
    writer.run('PRAGMA journal_mode = WAL')
    writer.run('PRAGMA wal_autocheckpoint = 40')
    writer.run('PRAGMA synchronous = OFF')
    writer.run('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)')
    const reads = new HeldReads({ path, holdBelowFrames: 20, holdMs: 60_000 })
    const sql = 'SELECT count(*) FROM notes'
    const plain = writer.prepare(sql)
    const count = reads.prepare<[number]>(sql, () => plain.values() as [number][])
    const insert = writer.prepare('INSERT INTO notes (body) VALUES (?)')
    let held = 0
    for (let i = 0; i < 6_000; i++) {
      if (i % 3 === 0) insert.run('x'.repeat(500))
      // Every read sees every commit; it holds again whenever the log is short.
      expect(count()[0]![0]).toBe(Math.floor(i / 3) + 1)
      if (reads.holding) held++
    }
    expect(held).toBeGreaterThan(1_000)
    // 2,000 commits of a page or two each: a log never started over would hold them all.
    const frames = statSync(`${path}-wal`).size / (4096 + 24)
    expect(frames).toBeLessThan(100)
    reads.close()
    writer.close()
  })
})
