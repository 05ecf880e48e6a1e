import { afterAll, expect, it } from 'bun:test'
import { join } from 'node:path'
import { PrincipalDirectory } from '../../identity/directory.ts'
import { RecentlyUsed } from '../../identity/recently-used.ts'
import { grantRole, openStore } from '../../store/index.ts'
import { createRole, replaceRolePatterns, roleNamed } from '../../store/role-admin.ts'
import { memoryLogger } from '../germination/fixtures.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('identity-directory')
afterAll(() => scratch.remove())

it('never holds more than its capacity, keeps what is used, forgets what is not, and holds nothing at 0', () => {
  const recent = new RecentlyUsed<string, string, number>(4)
  for (let i = 0; i < 100; i++) {
    recent.set('chat', `k${i}`, i)
    expect(recent.get('chat', 'kept')).toBe(i === 0 ? undefined : -1) // read at every step, so never forgotten
    if (i === 0) recent.set('chat', 'kept', -1)
    expect(recent.size).toBeLessThanOrEqual(4)
  }
  expect(recent.get('chat', 'k0')).toBeUndefined()
  expect(recent.get('chat', 'k99')).toBe(99)
  const one = new RecentlyUsed<string, string, number>(1)
  one.set('chat', 'a', 1)
  one.set('chat', 'b', 2)
  expect([one.get('chat', 'a'), one.get('chat', 'b'), one.size]).toEqual([undefined, 2, 1])
  const none = new RecentlyUsed<string, string, number>(0)
  none.set('chat', 'a', 1)
  expect([none.get('chat', 'a'), none.size]).toEqual([undefined, 0])
  // The same key in two scopes is two entries, each counted against the capacity.
  const scoped = new RecentlyUsed<string, string, number>(4)
  scoped.set('chat', 'a', 1)
  scoped.set('web', 'a', 2)
  expect([scoped.get('chat', 'a'), scoped.get('web', 'a'), scoped.get('other', 'a'), scoped.size]).toEqual([
    1,
    2,
    undefined,
    2,
  ])
  for (let i = 0; i < 10; i++) scoped.set(`s${i}`, 'a', i)
  expect(scoped.size).toBeLessThanOrEqual(4)
  scoped.delete('s9', 'a')
  expect(scoped.get('s9', 'a')).toBeUndefined()
})

it('keeps at most its capacity of principals however many people write, and answers the forgotten from the store', () => {
  const store = openStore({ path: join(scratch.path, 'crowd.db') })
  const directory = new PrincipalDirectory({
    store,
    defaultRole: 'newcomer',
    logger: memoryLogger(),
    capacity: 3,
  })
  const ids = Array.from(
    { length: 20 },
    (_, i) => directory.resolve({ channel: 'chat', externalId: `p${i}` }).id,
  )
  expect(new Set(ids).size).toBe(20)
  expect(directory.cached).toBeLessThanOrEqual(3)
  // The first sender was forgotten by memory, not by the store: same principal, no second first contact.
  const again = directory.resolve({ channel: 'chat', externalId: 'p0' })
  expect(again.id).toBe(ids[0]!)
  expect(again.principal.roles).toEqual(['newcomer'])
  expect(directory.cached).toBeLessThanOrEqual(3)
  store.close()
})

it('gives people who hold the same roles one list and one set of patterns, each right again after a change', () => {
  const store = openStore({ path: join(scratch.path, 'shared.db') })
  const directory = new PrincipalDirectory({
    store,
    defaultRole: 'newcomer',
    logger: memoryLogger(),
    capacity: 0,
  })
  createRole(store, 'films', ['films.*'])
  const [ada, bob, cy] = ['ada', 'bob', 'cy'].map((name) => {
    const { id } = directory.resolve({ channel: 'chat', externalId: name })
    grantRole(store, id, roleNamed(store, 'films')!.id)
    return { channel: 'chat', externalId: name }
  })
  const read = (who: typeof ada) => directory.recall(who!)!
  expect(read(ada).principal.roles).toEqual(['films', 'newcomer'])
  expect(read(ada).principal.roles).toBe(read(bob).principal.roles)
  expect(Object.isFrozen(read(ada).principal.roles)).toBe(true)
  expect(read(ada).patterns).toBe(read(bob).patterns)
  // The default role grants nothing here: only what films allows.
  expect([...read(ada).patterns]).toEqual(['films.*'])
  // Another role for one of them (and the invalidation every writer makes): their own list and
  // patterns, the others' unchanged.
  createRole(store, 'music', ['music.play'])
  grantRole(store, directory.recall(cy!)!.id, roleNamed(store, 'music')!.id)
  directory.invalidate()
  expect(read(cy).principal.roles).toEqual(['films', 'music', 'newcomer'])
  expect([...read(cy).patterns].sort()).toEqual(['films.*', 'music.play'])
  expect(read(ada).principal.roles).toEqual(['films', 'newcomer'])
  // The patterns of a role change: after the invalidation every writer makes, the new ones.
  replaceRolePatterns(store, roleNamed(store, 'films')!.id, ['films.search'])
  directory.invalidate()
  expect([...read(ada).patterns]).toEqual(['films.search'])
  expect([...read(cy).patterns].sort()).toEqual(['films.search', 'music.play'])
  store.close()
})
