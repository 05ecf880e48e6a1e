import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Mycelium } from '@mycelo/septum'
import { garden } from './garden.ts'
import { type Bot, dmWith, rejectionText, startBot } from './harness.ts'

type Scopes = Mycelium<
  'commands.read' | 'roles.manage' | 'roles.assign' | 'principals.read' | 'restrictions.manage'
>

let bot: Bot
let mycelium: Scopes
let owner: string
let ann: string

beforeAll(async () => {
  bot = await startBot(garden())
  mycelium = bot.surface<Scopes>('steward')
  await bot.emit('chat', 'hello', { from: 'ann' })
  owner = (await mycelium.findByIdentity('chat', 'boss'))!.id
  ann = (await mycelium.findByIdentity('chat', 'ann'))!.id
})

afterAll(async () => {
  await bot.stop()
})

const qualifiedOf = (commands: readonly { qualified: string }[]) =>
  commands.map((command) => command.qualified)

describe('commands.read', () => {
  it('answers [] for an unknown principal', async () => {
    expect(await mycelium.available('ghost', 'en')).toEqual([])
  })

  it('lists what the role patterns allow, sorted by qualified name, from the route map', async () => {
    const all = qualifiedOf(await mycelium.available(owner, 'en'))
    expect(all).toEqual([...all].sort())
    expect(all).toEqual(bot.runtime.routes.all.map((route) => route.qualified).sort())
    // Listed though its enzyme failed to start: the route map was drawn at germination.
    expect(all).toContain('stumble.go')
    expect(all).not.toContain('broken.go')
    expect(all).not.toContain('keyed.noop')
    expect(await mycelium.available(ann, 'en')).toEqual([])
    await mycelium.createRole('fans', ['films.*', 'tools.ping'])
    await mycelium.assignRole(ann, 'fans')
    expect(qualifiedOf(await mycelium.available(ann, 'en'))).toEqual([
      'films.about',
      'films.add',
      'films.react',
      'tools.ping',
    ])
  })

  it('renders descriptions and args in the asked locale, args in declaration order and absent when none', async () => {
    const [about, add, react, ping] = await mycelium.available(ann, 'fr')
    expect(about).toEqual({
      plugin: 'films',
      name: 'about',
      command: 'about',
      qualified: 'films.about',
      description: 'À quoi sert ce plugin',
    })
    expect(about && 'args' in about).toBe(false)
    expect(add).toEqual({
      plugin: 'films',
      name: 'add',
      command: 'add',
      qualified: 'films.add',
      description: 'Ajouter un film',
      args: [
        { name: 'title', description: 'Titre du film', required: true },
        { name: 'year', description: 'Année de sortie', required: false },
      ],
    })
    expect(react).toMatchObject({ description: 'Réagir à un message', capabilities: ['reactions'] })
    // A description no catalogue holds renders as its key.
    expect(ping?.description).toBe('command.ping.description')
    const [, addInEnglish] = await mycelium.available(ann, 'en')
    expect(addInEnglish?.description).toBe('Queue a movie')
    expect(addInEnglish?.args?.[0]?.description).toBe('Movie title')
  })

  it('takes the principal object getPrincipal answers, as well as its id', async () => {
    const annAsHeld = await mycelium.getPrincipal(ann)
    expect(annAsHeld?.id).toBe(ann)
    const byObject = await mycelium.available(annAsHeld!, 'en', { channel: 'chat' })
    expect(qualifiedOf(byObject)).toEqual(['films.about', 'films.add', 'tools.ping'])
    expect(byObject).toEqual(await mycelium.available(ann, 'en', { channel: 'chat' }))
    const ownerAsHeld = await mycelium.findByIdentity('chat', 'boss')
    expect(qualifiedOf(await mycelium.available(ownerAsHeld!, 'en'))).toContain('stumble.go')
    // Nobody: an unknown principal, or the null a lookup answers for one.
    expect(await mycelium.available({ ...annAsHeld!, id: 'ghost' }, 'en')).toEqual([])
    expect(await mycelium.available(null as never, 'en')).toEqual([])
  })

  it("applies the channel's capabilities only when asked where", async () => {
    expect(qualifiedOf(await mycelium.available(ann, 'en'))).toContain('films.react')
    expect(qualifiedOf(await mycelium.available(ann, 'en', { channel: 'chat' }))).not.toContain('films.react')
    expect(qualifiedOf(await mycelium.available(ann, 'en', { channel: 'rich' }))).toContain('films.react')
    expect(qualifiedOf(await mycelium.available(ann, 'en', { channel: 'nowhere' }))).toEqual([
      'films.about',
      'films.add',
      'tools.ping',
    ])
  })

  it('applies context rules only when asked where, in which kind of conversation', async () => {
    expect(await mycelium.setContextRule('films.add', ['dm'])).toBeUndefined()
    expect(qualifiedOf(await mycelium.available(ann, 'en', { channel: 'rich', kind: 'group' }))).toEqual([
      'films.about',
      'films.react',
      'tools.ping',
    ])
    expect(qualifiedOf(await mycelium.available(ann, 'en', { channel: 'rich', kind: 'dm' }))).toContain(
      'films.add',
    )
    expect(qualifiedOf(await mycelium.available(ann, 'en', { channel: 'rich' }))).toContain('films.add')
    expect(qualifiedOf(await mycelium.available(ann, 'en'))).toContain('films.add')
    expect(await mycelium.clearContextRule('films.add')).toBeUndefined()
  })
})

describe('restrictions.manage: context rules', () => {
  it('refuses a command no enzyme declares, or a bare name', async () => {
    expect(await rejectionText(bot, mycelium.setContextRule('films.nope', ['dm']))).toBe(
      'No command is named "films.nope"; name it as spore.command.',
    )
    expect(await rejectionText(bot, mycelium.setContextRule('about', ['dm']))).toBe(
      'No command is named "about"; name it as spore.command.',
    )
  })

  it('refuses an empty or invalid list of kinds', async () => {
    expect(await rejectionText(bot, mycelium.setContextRule('films.about', []))).toBe(
      'Say where "films.about" may run: dm, group or both.',
    )
    const stray = ['dm', 'channel'] as unknown as readonly ('dm' | 'group')[]
    expect(await rejectionText(bot, mycelium.setContextRule('films.about', stray))).toBe(
      '"channel" is not a kind of conversation: use dm or group.',
    )
    expect(await mycelium.listContextRules()).toEqual([])
  })

  it('takes one kind of conversation as well as a list, and reads it back as a list', async () => {
    expect(await mycelium.setContextRule('films.about', 'dm')).toBeUndefined()
    expect(await mycelium.listContextRules()).toEqual([
      { pattern: 'films.about', where: ['dm'], command: 'films.about', allowed: ['dm'] },
    ])
    await bot.emit('chat', '/films.about', { group: 'room-7' })
    expect(bot.takeSent('chat', 'room-7')).toEqual(['/films.about only works in a direct message.'])
    const stray = 'channel' as unknown as 'dm'
    expect(await rejectionText(bot, mycelium.setContextRule('films.about', stray), 'fr')).toBe(
      '«\u00a0channel\u00a0» n’est pas un type de conversation\u00a0: utilisez dm ou group.',
    )
    expect(await mycelium.clearContextRule('films.about')).toBeUndefined()
    expect(await mycelium.listContextRules()).toEqual([])
  })

  it('applies a rule to the very next message, and clears it', async () => {
    expect(await mycelium.setContextRule('films.about', ['group'])).toBeUndefined()
    expect(await mycelium.listContextRules()).toEqual([
      { pattern: 'films.about', where: ['group'], command: 'films.about', allowed: ['group'] },
    ])
    await bot.emit('chat', '/films.about')
    expect(bot.takeSent('chat', dmWith('boss'))).toEqual(['/films.about only works in a group.'])
    expect(await mycelium.clearContextRule('films.about')).toBeUndefined()
    await bot.emit('chat', '/films.about')
    expect(bot.takeSent('chat', dmWith('boss'))).toEqual(['Films keeps your watch list.'])
    expect(await rejectionText(bot, mycelium.clearContextRule('films.about'))).toBe(
      '"films.about" has no context rule.',
    )
  })
})

describe('restrictions.manage: inhibitor confinement', () => {
  it('refuses a name that is not an installed inhibitor, and a channel that is not installed', async () => {
    expect(await rejectionText(bot, mycelium.inhibitorChannels('nope'))).toBe(
      'No inhibitor named "nope" is installed.',
    )
    expect(await rejectionText(bot, mycelium.inhibitorChannels('films'))).toBe(
      'No inhibitor named "films" is installed.',
    )
    expect(await rejectionText(bot, mycelium.confineInhibitor('nope', ['chat']))).toBe(
      'No inhibitor named "nope" is installed.',
    )
    expect(await rejectionText(bot, mycelium.confineInhibitor('gate', ['chat', 'chatt']))).toBe(
      'No channel named "chatt" is installed.',
    )
    expect(await mycelium.inhibitorChannels('gate')).toEqual([])
  })

  it('confines under setInhibitorChannels as under confineInhibitor, refusing the same way', async () => {
    expect(await rejectionText(bot, mycelium.setInhibitorChannels('nope', ['chat']))).toBe(
      'No inhibitor named "nope" is installed.',
    )
    expect(await rejectionText(bot, mycelium.setInhibitorChannels('gate', ['chatt']))).toBe(
      'No channel named "chatt" is installed.',
    )
    expect(await mycelium.setInhibitorChannels('gate', ['rich'])).toBeUndefined()
    expect(await mycelium.inhibitorChannels('gate')).toEqual(['rich'])
    expect(await mycelium.setInhibitorChannels('gate', [])).toBeUndefined()
    expect(await mycelium.inhibitorChannels('gate')).toEqual([])
  })

  it('confines an enforcing inhibitor from the very next message, with no restart', async () => {
    await bot.emit('rich', '/films.about #hush')
    expect(bot.takeSent('rich', dmWith('boss'))).toEqual([])
    // The owner's identity on rich is a newcomer until an operator says otherwise.
    await bot.emit('rich', 'hello')
    const richBoss = (await mycelium.findByIdentity('rich', 'boss'))!.id
    expect(await mycelium.assignRole(richBoss, 'owner')).toEqual({ ok: true })
    expect(await mycelium.confineInhibitor('gate', ['chat'])).toBeUndefined()
    expect(await mycelium.inhibitorChannels('gate')).toEqual(['chat'])
    await bot.emit('rich', '/films.about #hush')
    expect(bot.takeSent('rich', dmWith('boss'))).toEqual(['Films keeps your watch list.'])
    await bot.emit('chat', '/films.about #hush')
    expect(bot.takeSent('chat', dmWith('boss'))).toEqual([])
    expect(await mycelium.confineInhibitor('gate', [])).toBeUndefined()
    await bot.emit('rich', '/films.about #hush')
    expect(bot.takeSent('rich', dmWith('boss'))).toEqual([])
  })
})

describe('restrictions.manage: broadcast targets', () => {
  it('refuses a target on a channel that is not installed, or with no conversation', async () => {
    expect(
      await rejectionText(bot, mycelium.addBroadcastTarget({ channel: 'nowhere', conversationId: 'x' })),
    ).toBe('No channel named "nowhere" is installed.')
    expect(
      await rejectionText(bot, mycelium.addBroadcastTarget({ channel: 'chat', conversationId: ' ' })),
    ).toBe('A broadcast target on chat needs a conversation id.')
    expect(await mycelium.listBroadcastTargets()).toEqual([])
  })

  it('adds a target once however often it is added, and refuses to remove an absent one', async () => {
    const target = { channel: 'chat', conversationId: 'news' }
    expect(await mycelium.addBroadcastTarget(target)).toBeUndefined()
    expect(await mycelium.addBroadcastTarget(target)).toBeUndefined()
    expect(await mycelium.listBroadcastTargets()).toEqual([target])
    expect(await mycelium.removeBroadcastTarget(target)).toBeUndefined()
    expect(await mycelium.listBroadcastTargets()).toEqual([])
    expect(await rejectionText(bot, mycelium.removeBroadcastTarget(target))).toBe(
      'The conversation news on chat is not a broadcast target.',
    )
  })
})
