import { describe, expect, it } from 'bun:test'
import type { CommandInfo } from '@mycelo/septum'
import { enzymeChecks } from '@mycelo/septum/conformance'
import module from '../src/index.ts'
import { catalogs, contextFor, FakeCommands, invocation, keysOf, manifest } from './harness.ts'

const french = (locale: string) => locale === 'fr'

/** The principal the harness's context carries: help hands it to available() whole. */
const ALICE = { id: 'p-alice', identities: [{ channel: 'console', externalId: 'alice' }], roles: ['member'] }

/** What the core would answer: sorted by qualified name, descriptions rendered in the locale. */
function commands(locale: string): CommandInfo[] {
  return [
    {
      plugin: 'help',
      name: 'help',
      command: 'help',
      qualified: 'help.help',
      description: french(locale) ? 'Liste les commandes' : 'List the commands',
      args: [
        { name: 'command', description: french(locale) ? 'Une commande' : 'A command', required: false },
      ],
    },
    {
      plugin: 'movies',
      name: 'add',
      command: 'add',
      qualified: 'movies.add',
      description: french(locale) ? 'Ajoute un film' : 'Queue a movie',
      args: [
        { name: 'title', description: french(locale) ? 'Titre du film' : 'Movie title', required: true },
        { name: 'year', description: french(locale) ? 'Année de sortie' : 'Release year', required: false },
      ],
    },
    { plugin: 'ping', name: 'ping', command: 'ping', qualified: 'ping.ping', description: 'Answer pong' },
    {
      plugin: 'shows',
      name: 'add',
      command: 'add',
      qualified: 'shows.add',
      description: 'Queue a show',
      args: [{ name: 'title', description: 'Show title', required: true }],
    },
  ]
}

async function ask(options: {
  args?: Record<string, string>
  locale?: string
  prefix?: string
  list?: (locale: string) => CommandInfo[]
  group?: { id: string }
}) {
  const replies: string[] = []
  const mycelium = new FakeCommands(options.list ?? commands)
  const ctx = contextFor({
    mycelium,
    replies,
    ...(options.locale !== undefined && { locale: options.locale }),
    ...(options.prefix !== undefined && { config: { prefix: options.prefix } }),
  })
  // create() may answer a promise (the contract's Awaitable): a spore in a host always does.
  await (await module.create()).handlers.help(invocation(options.args ?? {}, options.group), ctx)
  return { replies, calls: mycelium.calls }
}

describe('help spore', () => {
  it('conforms to the Enzyme contract, catalogues included', async () => {
    const failures = await enzymeChecks({
      name: 'help',
      manifest,
      module,
      catalogs,
      config: { prefix: '!' },
      invalidConfig: { prefix: 'two words' },
      context: () => contextFor({ mycelium: new FakeCommands(commands) }),
    })
    expect(failures).toEqual([])
  })

  it('has the same keys in English and French', () => {
    expect(keysOf('fr')).toEqual(keysOf('en'))
  })

  it('lists what the reader may run, with arguments, qualifying a name two plugins share', async () => {
    const { replies, calls } = await ask({})
    expect(replies).toEqual([
      [
        'The 4 commands you can run here:',
        '/help [command] — List the commands',
        '/movies.add <title> [year] — Queue a movie',
        '/ping — Answer pong',
        '/shows.add <title> — Queue a show',
        '',
        'Send /help <command> to see the details of one command.',
      ].join('\n'),
    ])
    expect(calls).toEqual([{ principal: ALICE, locale: 'en', where: { channel: 'console', kind: 'dm' } }])
  })

  it('asks for the group context in a group and answers in the reader’s locale', async () => {
    const { replies, calls } = await ask({ locale: 'fr', group: { id: 'g1' } })
    expect(calls).toEqual([{ principal: ALICE, locale: 'fr', where: { channel: 'console', kind: 'group' } }])
    expect(replies[0]?.split('\n').slice(0, 3)).toEqual([
      'Les 4 commandes que vous pouvez lancer ici :',
      '/help [command] — Liste les commandes',
      '/movies.add <title> [year] — Ajoute un film',
    ])
    expect(replies[0]).toEndWith('Envoyez /help <commande> pour voir le détail d’une commande.')
  })

  it('uses the configured prefix', async () => {
    const { replies } = await ask({ prefix: '!', list: (locale) => commands(locale).slice(2, 3) })
    expect(replies).toEqual([
      [
        'The command you can run here:',
        '!ping — Answer pong',
        '',
        'Send !help <command> to see the details of one command.',
      ].join('\n'),
    ])
  })

  it('says so when nothing is available to the reader', async () => {
    expect((await ask({ list: () => [] })).replies).toEqual(['There is no command you can run here.'])
    expect((await ask({ list: () => [], locale: 'fr' })).replies).toEqual([
      'Vous ne pouvez lancer aucune commande ici.',
    ])
  })

  it('explains one command with each argument', async () => {
    const { replies } = await ask({ args: { command: 'movies.add' } })
    expect(replies).toEqual([
      [
        '/movies.add <title> [year] — Queue a movie',
        '  title (required) — Movie title',
        '  year (optional) — Release year',
      ].join('\n'),
    ])
    const typedWithPrefix = await ask({ args: { command: '/Movies.add' }, locale: 'fr' })
    expect(typedWithPrefix.replies[0]?.split('\n')[1]).toBe('  title (obligatoire) — Titre du film')
  })

  it('explains every command a shared bare name reaches, and says when one takes no arguments', async () => {
    const shared = await ask({ args: { command: 'add' } })
    expect(shared.replies[0]).toBe(
      [
        '/movies.add <title> [year] — Queue a movie',
        '  title (required) — Movie title',
        '  year (optional) — Release year',
        '',
        '/shows.add <title> — Queue a show',
        '  title (required) — Show title',
      ].join('\n'),
    )
    const bare = await ask({ args: { command: 'ping' } })
    expect(bare.replies).toEqual(['/ping — Answer pong\nIt takes no arguments.'])
  })

  it('reads each bare name from `name`, which a core answering only that field still sends', async () => {
    const nameOnly = (locale: string) =>
      commands(locale).map(({ command: _command, ...info }) => info as CommandInfo)
    const { replies } = await ask({ list: nameOnly })
    expect(replies[0]?.split('\n').slice(1, 5)).toEqual([
      '/help [command] — List the commands',
      '/movies.add <title> [year] — Queue a movie',
      '/ping — Answer pong',
      '/shows.add <title> — Queue a show',
    ])
    expect((await ask({ list: nameOnly, args: { command: 'ping' } })).replies).toEqual([
      '/ping — Answer pong\nIt takes no arguments.',
    ])
  })

  it('answers an unknown command with a sentence in the reader’s locale', async () => {
    expect((await ask({ args: { command: 'fly' } })).replies).toEqual([
      'There is no command called fly that you can run here. Send /help alone to see the list.',
    ])
    expect((await ask({ args: { command: 'fly' }, locale: 'fr' })).replies).toEqual([
      'Aucune commande nommée fly ne vous est accessible ici. Envoyez /help seul pour voir la liste.',
    ])
  })
})
