import { describe, expect, it } from 'bun:test'
import { FakeMycelium } from './fake-mycelium.ts'
import { run } from './harness.ts'

describe('admin: people', () => {
  it('tells the reader who they are', async () => {
    expect((await run(new FakeMycelium(), 'whoami')).reply).toBe(
      ['Id: p-owner', 'Name: Olivia', 'Roles: owner', 'Identities: console:owner', 'Language: en'].join('\n'),
    )
    expect((await run(new FakeMycelium(), 'whoami', { locale: 'fr' })).reply).toStartWith(
      'Identifiant : p-owner\nNom : Olivia\nRôles : owner',
    )
  })

  it('lists the people with roles and whether they were reviewed', async () => {
    expect((await run(new FakeMycelium(), 'people')).reply).toBe(
      [
        '2 people:',
        'p-owner — Olivia — owner — console:owner — reviewed',
        'p-bob — no name — no role — console:bob — not reviewed',
      ].join('\n'),
    )
  })

  it('marks a person reviewed, `me` meaning the reader', async () => {
    const mycelium = new FakeMycelium()
    mycelium.people.get('p-owner')!.reviewed = false
    expect((await run(mycelium, 'review', { args: { principal: 'Me' } })).reply).toBe(
      'p-owner is marked as reviewed.',
    )
    expect(mycelium.people.get('p-owner')?.reviewed).toBe(true)
    expect((await run(mycelium, 'review', { args: { principal: 'p-bob' } })).reply).toBe(
      'p-bob is marked as reviewed.',
    )
    expect(mycelium.people.get('p-bob')?.reviewed).toBe(true)
  })

  it('renames a person with a name of several words, and refuses an unknown one', async () => {
    const mycelium = new FakeMycelium()
    expect(
      (await run(mycelium, 'rename', { args: { principal: 'p-bob', name: 'Bob the Builder' } })).reply,
    ).toBe('p-bob is now shown as Bob the Builder.')
    expect(mycelium.people.get('p-bob')?.displayName).toBe('Bob the Builder')
    expect((await run(mycelium, 'rename', { args: { principal: 'p-eve', name: 'Eve' } })).reply).toBe(
      'No person has the id p-eve.',
    )
  })
})

describe('admin: roles', () => {
  it('lists the roles with their patterns', async () => {
    expect((await run(new FakeMycelium(), 'roles')).reply).toBe(
      ['2 roles:', 'owner: * (built in)', 'member: help.*'].join('\n'),
    )
  })

  it('creates a role from patterns split on spaces and commas, and renders its refusals', async () => {
    const mycelium = new FakeMycelium()
    const create = (role: string, patterns: string) =>
      run(mycelium, 'role-create', { args: { role, patterns } })
    expect((await create('movies', 'movies.*, ping.ping  help.help')).reply).toBe(
      'Role movies is created, granting movies.* ping.ping help.help.',
    )
    expect(mycelium.roles.get('movies')).toEqual({
      patterns: ['movies.*', 'ping.ping', 'help.help'],
      builtin: false,
    })
    expect((await create('movies', 'ping.ping')).reply).toBe('A role called movies exists already.')
    expect((await create('shows', 'shows.* shows.*')).reply).toBe('The pattern shows.* is listed twice.')
  })

  it('replaces a role’s patterns, refusing the builtin owner', async () => {
    const mycelium = new FakeMycelium()
    const setTo = (role: string) =>
      run(mycelium, 'role-set', { args: { role, patterns: 'help.* admin.whoami' } })
    expect((await setTo('member')).reply).toBe('Role member now grants help.* admin.whoami.')
    expect(mycelium.roles.get('member')?.patterns).toEqual(['help.*', 'admin.whoami'])
    expect((await setTo('owner')).reply).toBe('The role owner is builtin and cannot change.')
    expect((await setTo('ghosts')).reply).toBe('There is no role called ghosts.')
  })

  it('deletes a role, refusing the builtin owner', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'role-delete', { args: { role: 'member' } })).reply).toBe(
      'Role member is deleted.',
    )
    expect(mycelium.roles.has('member')).toBe(false)
    expect((await run(mycelium, 'role-delete', { args: { role: 'owner' } })).reply).toBe(
      'The role owner is builtin and cannot change.',
    )
  })

  it('grants and revokes a role, `me` meaning the reader', async () => {
    const mycelium = new FakeMycelium()
    expect((await run(mycelium, 'grant', { args: { principal: 'me', role: 'member' } })).reply).toBe(
      'p-owner now holds the role member.',
    )
    expect(mycelium.people.get('p-owner')?.roles).toEqual(['owner', 'member'])
    expect((await run(mycelium, 'revoke', { args: { principal: 'me', role: 'member' } })).reply).toBe(
      'p-owner no longer holds the role member.',
    )
    expect(mycelium.people.get('p-owner')?.roles).toEqual(['owner'])
    expect((await run(mycelium, 'grant', { args: { principal: 'p-bob', role: 'ghosts' } })).reply).toBe(
      'There is no role called ghosts.',
    )
    expect((await run(mycelium, 'revoke', { args: { principal: 'p-eve', role: 'member' } })).reply).toBe(
      'No person has the id p-eve.',
    )
  })
})
