// The role ceiling, through the admin spore as shipped, over the real bus and a real SQLite file:
// a person changes only roles their own roles already cover.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { roleNamesOf } from '../../store/index.ts'
import { patternsOf } from '../../store/roles.ts'
import { realSpore } from '../support/real-spores.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'

let core: TestCore
beforeAll(async () => {
  core = await startTestCore({
    spores: { help: realSpore('help'), admin: realSpore('admin') },
    roles: {
      granters: ['admin.grant'],
      admins: ['admin.*'],
      deputies: ['*'],
      editors: ['admin.role-create', 'admin.role-set', 'admin.role-delete', 'help.*'],
      critics: ['help.*', 'films.*'],
      revokers: ['admin.revoke', 'help.*', 'admin.lang'],
    },
    grants: {
      granter: ['granters'],
      deputy: ['deputies'],
      editor: ['editors'],
      revoker: ['revokers'],
      ally: ['member'],
      owner: ['member'],
    },
  })
})
afterAll(() => core.stop())

const one = async (text: string, from?: string) => (await core.ask(text, from ? { from } : {})).join('\n')
const idOf = (externalId: string) =>
  core.assembly.runtime.directory.resolve({ channel: 'chat', externalId }).id
const rolesOf = (externalId: string) => roleNamesOf(core.store, idOf(externalId))

describe('granting under the ceiling', () => {
  it('refuses a principal holding only admin.grant the owner role, even for themself', async () => {
    const me = idOf('granter')
    expect(await one(`/grant ${me} owner`, 'granter')).toBe(
      'Only a holder of the role "owner" may grant or revoke it.',
    )
    expect(rolesOf('granter')).toEqual(['granters'])
  })

  it('refuses a role whose patterns it does not cover, naming them; grants one it does', async () => {
    const me = idOf('granter')
    expect(await one(`/grant ${me} admins`, 'granter')).toBe(
      'Your roles do not cover the pattern admin.*: nobody hands out more than they hold.',
    )
    const ally = idOf('ally')
    expect(await one(`/grant ${ally} granters`, 'granter')).toBe(`${ally} now holds the role granters.`)
    expect(rolesOf('ally')).toEqual(['granters', 'member'])
    expect(rolesOf('granter')).toEqual(['granters'])
  })

  it('lets `*` cover every role but the owner role, which only an owner hands out', async () => {
    const me = idOf('deputy')
    expect(await one(`/grant ${me} owner`, 'deputy')).toBe(
      'Only a holder of the role "owner" may grant or revoke it.',
    )
    expect(await one(`/grant ${me} admins`, 'deputy')).toBe(`${me} now holds the role admins.`)
    expect(rolesOf('deputy')).toEqual(['admins', 'deputies'])
  })

  it('words the refusal in the reader’s language', async () => {
    await one('/lang fr', 'revoker')
    expect(await one(`/revoke ${idOf('ally')} member`, 'revoker')).toBe(
      `«\u00a0${idOf('ally')}\u00a0» détient des commandes que vos rôles ne couvrent pas (admin.grant)\u00a0: vous ne pouvez pas lui retirer de rôle.`,
    )
    await one('/lang en', 'revoker')
  })
})

describe('editing roles under the ceiling', () => {
  it('creates a role only from patterns its roles cover, naming those they do not', async () => {
    expect(await one('/role-create wider help.* films.* admin.grant', 'editor')).toBe(
      'Your roles do not cover the patterns films.*, admin.grant: nobody hands out more than they hold.',
    )
    expect(patternsOf(core.store, 'wider')).toEqual([])
    expect(await one('/role-create readers help.help', 'editor')).toContain('readers')
    expect(patternsOf(core.store, 'readers')).toEqual(['help.help'])
  })

  it('rewrites a role only to patterns it covers, and only a role it covers already', async () => {
    expect(await one('/role-set readers admin.*', 'editor')).toBe(
      'Your roles do not cover the pattern admin.*: nobody hands out more than they hold.',
    )
    expect(await one('/role-set critics help.*', 'editor')).toBe(
      'Your roles do not cover the pattern films.*: nobody hands out more than they hold.',
    )
    expect(patternsOf(core.store, 'critics')).toEqual(['films.*', 'help.*'])
    expect(await one('/role-set readers help.*', 'editor')).toContain('readers')
    expect(patternsOf(core.store, 'readers')).toEqual(['help.*'])
  })

  it('deletes only a role it covers', async () => {
    expect(await one('/role-delete critics', 'editor')).toBe(
      'Your roles do not cover the pattern films.*: nobody hands out more than they hold.',
    )
    expect(patternsOf(core.store, 'critics')).toEqual(['films.*', 'help.*'])
    expect(await one('/role-delete readers', 'editor')).toContain('readers')
    expect(patternsOf(core.store, 'readers')).toEqual([])
  })
})

describe('revoking under the ceiling', () => {
  it('refuses to take a role from someone who holds more, naming what they hold beyond', async () => {
    // ally was handed `granters` above: revoking even the member role from them is taking from above.
    const ally = idOf('ally')
    expect(await one(`/revoke ${ally} member`, 'revoker')).toBe(
      `"${ally}" holds commands your roles do not cover (admin.grant): you cannot take roles from them.`,
    )
    expect(rolesOf('ally')).toEqual(['granters', 'member'])
    const newcomer = idOf('newcomer')
    expect(await one(`/revoke ${newcomer} member`, 'revoker')).toBe(
      `${newcomer} no longer holds the role member.`,
    )
    expect(rolesOf('newcomer')).toEqual([])
  })

  it('refuses a `*` holder who is no owner to take roles from an owner', async () => {
    const owner = idOf('owner')
    expect(await one(`/revoke ${owner} member`, 'deputy')).toBe(
      `"${owner}" holds the role "owner", which you do not: only a holder of it may take roles from them.`,
    )
    expect(rolesOf('owner')).toContain('member')
  })

  it('never takes the owner role from its last holder, not even at their own word', async () => {
    const owner = idOf('owner')
    expect(await one(`/revoke ${owner} owner`)).toBe(
      `"${owner}" is the last holder of the owner role: grant it to someone else first.`,
    )
    expect(rolesOf('owner')).toContain('owner')
    const heir = idOf('heir')
    expect(await one(`/grant ${heir} owner`)).toBe(`${heir} now holds the role owner.`)
    expect(await one(`/revoke ${owner} owner`)).toBe(`${owner} no longer holds the role owner.`)
    expect(await one(`/revoke ${heir} owner`, 'heir')).toBe(
      `"${heir}" is the last holder of the owner role: grant it to someone else first.`,
    )
  })
})
