import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Mycelium } from '@mycelo/septum'
import { garden } from './garden.ts'
import { type Bot, dmWith, refusalText, startBot } from './harness.ts'

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
      command: 'about',
      qualified: 'films.about',
      description: 'À quoi sert ce plugin',
    })
    expect(about && 'args' in about).toBe(false)
    expect(add).toEqual({
      plugin: 'films',
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
    expect(await mycelium.setContextRule('films.add', ['dm'])).toEqual({ ok: true })
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
    expect(await mycelium.clearContextRule('films.add')).toEqual({ ok: true })
  })
})

describe('restrictions.manage: context rules', () => {
  it('refuses a command no enzyme declares, or a bare name', async () => {
    expect(refusalText(bot, await mycelium.setContextRule('films.nope', ['dm']))).toBe(
      'No command is named "films.nope"; name it as plugin.command.',
    )
    expect(refusalText(bot, await mycelium.setContextRule('about', ['dm']))).toBe(
      'No command is named "about"; name it as plugin.command.',
    )
  })

  it('refuses an empty or invalid list of kinds', async () => {
    expect(refusalText(bot, await mycelium.setContextRule('films.about', []))).toBe(
      'Say where "films.about" may run: dm, group or both.',
    )
    const stray = ['dm', 'channel'] as unknown as readonly ('dm' | 'group')[]
    expect(refusalText(bot, await mycelium.setContextRule('films.about', stray))).toBe(
      '"channel" is not a kind of conversation: use dm or group.',
    )
    expect(await mycelium.listContextRules()).toEqual([])
  })

  it('applies a rule to the very next message, and clears it', async () => {
    expect(await mycelium.setContextRule('films.about', ['group'])).toEqual({ ok: true })
    expect(await mycelium.listContextRules()).toEqual([{ command: 'films.about', allowed: ['group'] }])
    await bot.emit('chat', '/films.about')
    expect(bot.takeSent('chat', dmWith('boss'))).toEqual(['/films.about only works in a group.'])
    expect(await mycelium.clearContextRule('films.about')).toEqual({ ok: true })
    await bot.emit('chat', '/films.about')
    expect(bot.takeSent('chat', dmWith('boss'))).toEqual(['Films keeps your watch list.'])
    expect(refusalText(bot, await mycelium.clearContextRule('films.about'))).toBe(
      '"films.about" has no context rule.',
    )
  })
})

describe('restrictions.manage: inhibitor confinement', () => {
  it('refuses a name that is not an installed inhibitor, and a channel that is not installed', async () => {
    expect(refusalText(bot, await mycelium.inhibitorChannels('nope'))).toBe(
      'No inhibitor named "nope" is installed.',
    )
    expect(refusalText(bot, await mycelium.inhibitorChannels('films'))).toBe(
      'No inhibitor named "films" is installed.',
    )
    expect(refusalText(bot, await mycelium.confineInhibitor('nope', ['chat']))).toBe(
      'No inhibitor named "nope" is installed.',
    )
    expect(refusalText(bot, await mycelium.confineInhibitor('gate', ['chat', 'chatt']))).toBe(
      'No channel named "chatt" is installed.',
    )
    expect(await mycelium.inhibitorChannels('gate')).toEqual({ ok: true, value: [] })
  })

  it('confines an enforcing inhibitor from the very next message, with no restart', async () => {
    await bot.emit('rich', '/films.about #hush')
    expect(bot.takeSent('rich', dmWith('boss'))).toEqual([])
    // The owner's identity on rich is a newcomer until an operator says otherwise.
    await bot.emit('rich', 'hello')
    const richBoss = (await mycelium.findByIdentity('rich', 'boss'))!.id
    expect(await mycelium.assignRole(richBoss, 'owner')).toEqual({ ok: true })
    expect(await mycelium.confineInhibitor('gate', ['chat'])).toEqual({ ok: true })
    expect(await mycelium.inhibitorChannels('gate')).toEqual({ ok: true, value: ['chat'] })
    await bot.emit('rich', '/films.about #hush')
    expect(bot.takeSent('rich', dmWith('boss'))).toEqual(['Films keeps your watch list.'])
    await bot.emit('chat', '/films.about #hush')
    expect(bot.takeSent('chat', dmWith('boss'))).toEqual([])
    expect(await mycelium.confineInhibitor('gate', [])).toEqual({ ok: true })
    await bot.emit('rich', '/films.about #hush')
    expect(bot.takeSent('rich', dmWith('boss'))).toEqual([])
  })
})

describe('restrictions.manage: broadcast targets', () => {
  it('refuses a target on a channel that is not installed, or with no conversation', async () => {
    expect(
      refusalText(bot, await mycelium.addBroadcastTarget({ channel: 'nowhere', conversationId: 'x' })),
    ).toBe('No channel named "nowhere" is installed.')
    expect(
      refusalText(bot, await mycelium.addBroadcastTarget({ channel: 'chat', conversationId: ' ' })),
    ).toBe('A broadcast target on chat needs a conversation id.')
    expect(await mycelium.listBroadcastTargets()).toEqual([])
  })

  it('adds a target once however often it is added, and refuses to remove an absent one', async () => {
    const target = { channel: 'chat', conversationId: 'news' }
    expect(await mycelium.addBroadcastTarget(target)).toEqual({ ok: true })
    expect(await mycelium.addBroadcastTarget(target)).toEqual({ ok: true })
    expect(await mycelium.listBroadcastTargets()).toEqual([target])
    expect(await mycelium.removeBroadcastTarget(target)).toEqual({ ok: true })
    expect(await mycelium.listBroadcastTargets()).toEqual([])
    expect(refusalText(bot, await mycelium.removeBroadcastTarget(target))).toBe(
      'The conversation news on chat is not a broadcast target.',
    )
  })
})
