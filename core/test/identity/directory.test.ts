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
  const recent = new RecentlyUsed<string, number>(4)
  for (let i = 0; i < 100; i++) {
    recent.set(`k${i}`, i)
    expect(recent.get('kept')).toBe(i === 0 ? undefined : -1) // read at every step, so never forgotten
    if (i === 0) recent.set('kept', -1)
    expect(recent.size).toBeLessThanOrEqual(4)
  }
  expect(recent.get('k0')).toBeUndefined()
  expect(recent.get('k99')).toBe(99)
  const one = new RecentlyUsed<string, number>(1)
  one.set('a', 1)
  one.set('b', 2)
  expect([one.get('a'), one.get('b'), one.size]).toEqual([undefined, 2, 1])
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
  expect(directory.cached).toBeLessThanOrEqual(3)
  // The first sender was forgotten by memory, not by the store: same principal, no second first contact.
  const again = directory.resolve({ channel: 'chat', externalId: 'p0' })
  expect(again.id).toBe(ids[0]!)
  expect(again.principal.roles).toEqual(['newcomer'])
  expect(directory.cached).toBeLessThanOrEqual(3)
  store.close()
})
