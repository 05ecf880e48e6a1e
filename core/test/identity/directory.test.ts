import { afterAll, expect, it } from 'bun:test'
import { join } from 'node:path'
import { PrincipalDirectory } from '../../identity/directory.ts'
import { RecentlyUsed } from '../../identity/recently-used.ts'
import { openStore } from '../../store/index.ts'
import { memoryLogger } from '../germination/fixtures.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('identity-directory')
afterAll(() => scratch.remove())

it('forgets the least recently used entry past its capacity, and holds nothing at capacity 0', () => {
  const recent = new RecentlyUsed<string, number>(2)
  recent.set('a', 1)
  recent.set('b', 2)
  expect(recent.get('a')).toBe(1) // a is now the most recent
  recent.set('c', 3)
  expect([recent.get('a'), recent.get('b'), recent.get('c')]).toEqual([1, undefined, 3])
  expect(recent.size).toBe(2)
  const none = new RecentlyUsed<string, number>(0)
  none.set('a', 1)
  expect([none.get('a'), none.size]).toEqual([undefined, 0])
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
  expect(directory.cached).toBe(3)
  // The first sender was forgotten by memory, not by the store: same principal, no second first contact.
  const again = directory.resolve({ channel: 'chat', externalId: 'p0' })
  expect(again.id).toBe(ids[0]!)
  expect(again.principal.roles).toEqual(['newcomer'])
  expect(directory.cached).toBe(3)
  store.close()
})
