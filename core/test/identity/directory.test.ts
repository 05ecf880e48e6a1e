import { afterAll, expect, it } from 'bun:test'
import { join } from 'node:path'
import { PrincipalDirectory } from '../../identity/directory.ts'
import { RecentlyUsed } from '../../identity/recently-used.ts'
import { openStore } from '../../store/index.ts'
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
