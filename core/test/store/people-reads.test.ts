import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { ensureRole, grantRole, openStore } from '../../store/index.ts'
import {
  listPeople,
  markReviewed,
  personByIdentity,
  personOf,
  setDisplayName,
  setPrincipalLocale,
} from '../../store/people.ts'
import { meetPrincipal } from '../../store/principals.ts'
import { createRole, deleteRole, roleNamed } from '../../store/role-admin.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-people-reads')
afterAll(() => scratch.remove())

describe('a person read straight from bun:sqlite', () => {
  it('reads every field as drizzle’s own mapping of the same rows does', () => {
    const store = openStore({ path: join(scratch.path, 'same.db') })
    const ada = meetPrincipal(store, {
      identity: { channel: 'chat', externalId: 'ada', displayName: 'Ada' },
      role: 'newcomer',
    }).id
    const bob = meetPrincipal(store, {
      identity: { channel: 'chat', externalId: 'bob' },
      role: 'newcomer',
    }).id
    grantRole(store, bob, ensureRole(store, 'crowd', { patterns: ['bench.*'] }))
    grantRole(store, bob, ensureRole(store, 'admins', { patterns: ['*'] }))
    markReviewed(store, bob)
    setDisplayName(store, bob, 'Robert')
    setPrincipalLocale(store, bob, 'fr')
    store.db.$client.run(
      "INSERT INTO channel_identities (principal_id, channel, external_id, display_name) VALUES (?, 'signal', '+33', 'Bobby')",
      [bob],
    )
    // listPeople goes through drizzle's select and its column decoders: the reference.
    const everyone = new Map(listPeople(store).map((person) => [person.id, person]))
    for (const id of [ada, bob]) expect(personOf(store, id)).toEqual(everyone.get(id)!)
    const read = personByIdentity(store, { channel: 'signal', externalId: '+33' })!
    expect(read).toEqual(everyone.get(bob)!)
    expect(read.reviewed).toBe(true)
    expect(read.createdAt).toBeInstanceOf(Date)
    expect(read.roles).toEqual(['admins', 'crowd', 'newcomer'])
    expect(read.identities).toEqual([
      { channel: 'chat', externalId: 'bob' },
      { channel: 'signal', externalId: '+33', displayName: 'Bobby' },
    ])
    expect(personByIdentity(store, { channel: 'chat', externalId: 'nobody' })).toBeUndefined()
    store.close()
  })

  it('names a role created after the names were read, even by another connection', () => {
    const path = join(scratch.path, 'later.db')
    const store = openStore({ path })
    const ada = meetPrincipal(store, {
      identity: { channel: 'chat', externalId: 'ada' },
      role: 'newcomer',
    }).id
    expect(personOf(store, ada)?.roles).toEqual(['newcomer'])
    const other = openStore({ path })
    createRole(other, 'latecomers', ['films.*'])
    grantRole(other, ada, roleNamed(other, 'latecomers')!.id)
    other.close()
    expect(personOf(store, ada)?.roles).toEqual(['latecomers', 'newcomer'])
    store.close()
  })

  it('never gives a deleted role’s id to a new one, which the remembered names rest on', () => {
    const store = openStore({ path: join(scratch.path, 'ids.db') })
    createRole(store, 'first', [])
    const first = roleNamed(store, 'first')!.id
    deleteRole(store, first)
    createRole(store, 'second', [])
    expect(roleNamed(store, 'second')!.id).not.toBe(first)
    store.close()
  })
})

describe('a person read by identity in one statement', () => {
  it('sees every change another connection commits, at the very next read, and writes nothing', () => {
    const path = join(scratch.path, 'fresh.db')
    const store = openStore({ path })
    const ada = meetPrincipal(store, {
      identity: { channel: 'chat', externalId: 'ada', displayName: 'Ada' },
      role: 'newcomer',
    }).id
    const key = { channel: 'chat', externalId: 'ada' }
    expect(personByIdentity(store, key)?.roles).toEqual(['newcomer'])
    const changes = store.db.$client.query<{ n: number }, []>('SELECT total_changes() AS n')
    const before = changes.get()!.n

    const other = openStore({ path })
    createRole(other, 'fans', ['films.*'])
    grantRole(other, ada, roleNamed(other, 'fans')!.id)
    setDisplayName(other, ada, 'Adeline')
    setPrincipalLocale(other, ada, 'fr')
    expect(personByIdentity(store, key)).toMatchObject({
      roles: ['fans', 'newcomer'],
      displayName: 'Adeline',
      locale: 'fr',
      identities: [{ channel: 'chat', externalId: 'ada', displayName: 'Ada' }],
    })
    // A second identity: read whole, oldest first, whichever one the person is found by.
    other.db.$client.run(
      "INSERT INTO channel_identities (principal_id, channel, external_id, added_at) VALUES (?, 'signal', '+33', 4102444800000)",
      [ada],
    )
    const both = [
      { channel: 'chat', externalId: 'ada', displayName: 'Ada' },
      { channel: 'signal', externalId: '+33' },
    ]
    expect(personByIdentity(store, key)?.identities).toEqual(both)
    expect(personByIdentity(store, { channel: 'signal', externalId: '+33' })?.identities).toEqual(both)
    deleteRole(other, roleNamed(other, 'fans')!.id)
    expect(personByIdentity(store, key)?.roles).toEqual(['newcomer'])
    other.db.$client.run('DELETE FROM principals WHERE id = ?', [ada])
    expect(personByIdentity(store, key)).toBeUndefined()
    other.close()

    // Reading found everything as it is: nothing was written by this connection.
    expect(changes.get()!.n).toBe(before)
    store.close()
  })
})
