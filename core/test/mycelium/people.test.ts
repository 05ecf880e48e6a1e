import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Mycelium } from '@mycelo/septum'
import { garden } from './garden.ts'
import { type Bot, dmWith, refusalText, rejectionText, startBot } from './harness.ts'

type PeopleScopes = Mycelium<
  'principals.read' | 'principals.manage' | 'roles.read' | 'roles.assign' | 'roles.manage' | 'locale.manage'
>

let bot: Bot
let mycelium: PeopleScopes
let ann: string
let owner: string

/** Ann asks for films' about text in her dm, and the test reads the answer. */
async function annAsks(): Promise<string[]> {
  await bot.emit('chat', '/films.about', { from: 'ann', displayName: 'Ann' })
  return bot.takeSent('chat', dmWith('ann'))
}

beforeAll(async () => {
  bot = await startBot(garden())
  mycelium = bot.surface<PeopleScopes>('steward')
  await annAsks()
  ann = (await mycelium.findByIdentity('chat', 'ann'))!.id
  owner = (await mycelium.findByIdentity('chat', 'boss'))!.id
})

afterAll(async () => {
  await bot.stop()
})

describe('principals.read', () => {
  it('lists everyone the bot knows, oldest first', async () => {
    const people = await mycelium.listPrincipals()
    expect(people.map((person) => person.id)).toEqual([owner, ann])
    expect(people[1]).toEqual({
      id: ann,
      displayName: 'Ann',
      identities: [{ channel: 'chat', externalId: 'ann', displayName: 'Ann' }],
      roles: ['member'],
      reviewed: false,
      createdAt: expect.any(Date),
    })
    expect(people[0]?.roles).toEqual(['owner'])
  })

  it('answers null, not a refusal, for someone it does not know', async () => {
    expect(await mycelium.getPrincipal('ghost')).toBeNull()
    expect(await mycelium.findByIdentity('chat', 'ghost')).toBeNull()
    expect(await mycelium.findByIdentity('rich', 'ann')).toBeNull()
    expect((await mycelium.getPrincipal(ann))?.identities).toEqual([
      { channel: 'chat', externalId: 'ann', displayName: 'Ann' },
    ])
  })
})

describe('principals.manage', () => {
  it('refuses an unknown principal id', async () => {
    expect(refusalText(bot, await mycelium.markReviewed('ghost'))).toBe('No one is known by the id "ghost".')
    expect(refusalText(bot, await mycelium.setDisplayName('ghost', 'Casper'))).toBe(
      'No one is known by the id "ghost".',
    )
  })

  it('marks a newcomer reviewed', async () => {
    expect(await mycelium.markReviewed(ann)).toEqual({ ok: true })
    expect((await mycelium.getPrincipal(ann))?.reviewed).toBe(true)
  })

  it("sets a display name over the channel's, and clears it with an empty one", async () => {
    expect(await mycelium.setDisplayName(ann, 'Annie')).toEqual({ ok: true })
    expect((await mycelium.getPrincipal(ann))?.displayName).toBe('Annie')
    expect(bot.runtime.directory.load(ann)?.principal.displayName).toBe('Annie')
    expect(await mycelium.setDisplayName(ann, '  ')).toEqual({ ok: true })
    expect((await mycelium.getPrincipal(ann))?.displayName).toBe('Ann')
  })
})

describe('roles.read', () => {
  it('lists every role with its patterns and whether it is built in', async () => {
    expect(await mycelium.listRoles()).toEqual([
      { name: 'member', patterns: ['admin.lang', 'help.*'], builtin: false },
      { name: 'owner', patterns: ['*'], builtin: true },
    ])
  })

  it('answers [] for an unknown principal, who holds no role either way', async () => {
    expect(await mycelium.rolesOf('ghost')).toEqual([])
    expect(await mycelium.rolesOf(ann)).toEqual(['member'])
  })
})

describe('roles.manage', () => {
  it('refuses an empty, malformed or taken role name', async () => {
    expect(refusalText(bot, await mycelium.createRole('', []))).toBe('A role needs a name.')
    expect(refusalText(bot, await mycelium.createRole('   ', []))).toBe('A role needs a name.')
    expect(refusalText(bot, await mycelium.createRole('Film Fans', []))).toBe(
      'A role name is made of lowercase letters, digits and dashes; "Film Fans" is not.',
    )
    expect(refusalText(bot, await mycelium.createRole('member', []))).toBe(
      'A role named "member" already exists.',
    )
    expect(refusalText(bot, await mycelium.createRole('owner', ['*']))).toBe(
      'A role named "owner" already exists.',
    )
  })

  it('refuses a pattern listed twice, and one that is not a command pattern', async () => {
    expect(refusalText(bot, await mycelium.createRole('fans', ['films.*', 'tools.ping', 'films.*']))).toBe(
      'The pattern "films.*" is listed twice.',
    )
    expect(refusalText(bot, await mycelium.createRole('fans', ['films']))).toBe(
      '"films" is not a command pattern: use *, spore.* or spore.command.',
    )
    expect((await mycelium.listRoles()).map((role) => role.name)).toEqual(['member', 'owner'])
  })

  it('creates a role with its patterns', async () => {
    expect(await mycelium.createRole('fans', ['films.*', 'tools.ping'])).toEqual({ ok: true })
    expect((await mycelium.listRoles()).find((role) => role.name === 'fans')).toEqual({
      name: 'fans',
      patterns: ['films.*', 'tools.ping'],
      builtin: false,
    })
  })

  it('refuses to rewrite a builtin or unknown role, or to take a bad pattern', async () => {
    expect(refusalText(bot, await mycelium.setRoleCommands('owner', ['films.*']))).toBe(
      'The role "owner" is built in: it cannot be changed or deleted.',
    )
    expect(refusalText(bot, await mycelium.setRoleCommands('ghosts', ['films.*']))).toBe(
      'There is no role named "ghosts".',
    )
    expect(refusalText(bot, await mycelium.setRoleCommands('fans', ['films.*', 'films.*']))).toBe(
      'The pattern "films.*" is listed twice.',
    )
    expect((await mycelium.listRoles()).find((role) => role.name === 'owner')?.patterns).toEqual(['*'])
  })

  it('replaces every pattern of a role at once', async () => {
    expect(await mycelium.setRoleCommands('fans', ['films.about'])).toEqual({ ok: true })
    expect((await mycelium.listRoles()).find((role) => role.name === 'fans')?.patterns).toEqual([
      'films.about',
    ])
  })

  it('refuses to delete a builtin, unknown or default role', async () => {
    expect(refusalText(bot, await mycelium.deleteRole('owner'))).toBe(
      'The role "owner" is built in: it cannot be changed or deleted.',
    )
    expect(refusalText(bot, await mycelium.deleteRole('ghosts'))).toBe('There is no role named "ghosts".')
    expect(refusalText(bot, await mycelium.deleteRole('member'))).toBe(
      'The role "member" is the one newcomers receive, so it cannot be deleted.',
    )
  })
})

describe('roles.assign', () => {
  it('refuses an unknown principal or role', async () => {
    expect(refusalText(bot, await mycelium.assignRole('ghost', 'fans'))).toBe(
      'No one is known by the id "ghost".',
    )
    expect(refusalText(bot, await mycelium.assignRole(ann, 'ghosts'))).toBe(
      'There is no role named "ghosts".',
    )
    expect(refusalText(bot, await mycelium.revokeRole('ghost', 'fans'))).toBe(
      'No one is known by the id "ghost".',
    )
    expect(refusalText(bot, await mycelium.revokeRole(ann, 'ghosts'))).toBe(
      'There is no role named "ghosts".',
    )
  })

  it('grants a role, and the very next message is authorised by it', async () => {
    expect(await annAsks()).toEqual(['You are not allowed to run /films.about.'])
    expect(await mycelium.assignRole(ann, 'fans')).toEqual({ ok: true })
    expect(await mycelium.rolesOf(ann)).toEqual(['fans', 'member'])
    expect(await annAsks()).toEqual(['Films keeps your watch list.'])
  })

  it('revokes a role, and the very next message is refused again', async () => {
    expect(await mycelium.revokeRole(ann, 'fans')).toEqual({ ok: true })
    expect(await annAsks()).toEqual(['You are not allowed to run /films.about.'])
    expect(refusalText(bot, await mycelium.revokeRole(ann, 'fans'))).toBe(
      `"${ann}" does not hold the role "fans".`,
    )
  })

  it('deletes a role along with every grant of it', async () => {
    expect(await mycelium.assignRole(ann, 'fans')).toEqual({ ok: true })
    expect(await mycelium.deleteRole('fans')).toEqual({ ok: true })
    expect(await mycelium.rolesOf(ann)).toEqual(['member'])
    expect(await annAsks()).toEqual(['You are not allowed to run /films.about.'])
  })
})

describe('locale.manage', () => {
  it('answers the locales some catalogue ships, the default first', () => {
    expect(mycelium.availableLocales()).toEqual(['en', 'fr'])
  })

  it('refuses an unknown principal, or a language no catalogue ships, naming the ones it does', async () => {
    expect(await rejectionText(bot, mycelium.setPrincipalLocale('ghost', 'fr'))).toBe(
      'No one is known by the id "ghost".',
    )
    expect(await rejectionText(bot, mycelium.setPrincipalLocale(ann, 'de'))).toBe(
      'The language "de" is not available; choose one of en, fr.',
    )
    expect((await mycelium.getPrincipal(ann))?.locale).toBeUndefined()
  })

  it("sets a reader's language, which their very next answer speaks", async () => {
    expect(await mycelium.setRoleCommands('member', ['help.*', 'films.about'])).toEqual({ ok: true })
    expect(await annAsks()).toEqual(['Films keeps your watch list.'])
    expect(await mycelium.setPrincipalLocale(ann, 'fr')).toBeUndefined()
    expect((await mycelium.getPrincipal(ann))?.locale).toBe('fr')
    expect(await annAsks()).toEqual(['Films tient votre liste de films.'])
  })

  it("sets a conversation's language, which wins over the reader's", async () => {
    expect(await rejectionText(bot, mycelium.setConversationLocale('chat', 'room-9', 'en'))).toBe(
      'The conversation room-9 on chat has never been seen.',
    )
    await bot.emit('chat', '/films.about', { from: 'ann', group: 'room-1' })
    expect(bot.takeSent('chat', 'room-1')).toEqual(['Films tient votre liste de films.'])
    expect(await rejectionText(bot, mycelium.setConversationLocale('chat', 'room-1', 'de'))).toBe(
      'The language "de" is not available; choose one of en, fr.',
    )
    expect(await mycelium.setConversationLocale('chat', 'room-1', 'en')).toBeUndefined()
    await bot.emit('chat', '/films.about', { from: 'ann', group: 'room-1' })
    expect(bot.takeSent('chat', 'room-1')).toEqual(['Films keeps your watch list.'])
  })
})
