import { describe, expect, it } from 'bun:test'
import type { EnzymeContext, EnzymeModule, EnzymeStartContext, OutgoingContent } from '@mycelo/septum'
import { enzymeChecks, manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { loadSpore } from './fixtures/conformance/load-spore.ts'
import module from './fixtures/conformance/radarr-helper/src/index.ts'

// The conformance example's context, as an author would copy it.
const context = (): EnzymeContext => ({
  config: {},
  logger: { debug() {}, info() {}, warn() {}, error() {}, child: () => context().logger },
  async reply() {},
  async push() {},
  rhiza: <T>() => ({}) as T,
  has: () => false,
  storage: memoryStorage(),
  schedule: manualSchedule(),
  capabilities: { has: () => true, list: () => [] },
  capabilitiesOf: () => ({ has: () => true, list: () => [] }),
  principal: { id: 'p1', identities: [], roles: [] },
  locale: 'en',
  on() {},
  t: (key) => (typeof key === 'string' ? key : key.key),
  localeFor: () => Promise.resolve('en'),
})

/** context() with a reply that records what the handler answered. */
function recording(locale = 'en'): { context: () => EnzymeContext; replies: OutgoingContent[] } {
  const replies: OutgoingContent[] = []
  return {
    replies,
    context: () => ({
      ...context(),
      locale,
      async reply(content) {
        replies.push(content)
      },
    }),
  }
}

const radarrManifest = {
  kind: 'enzyme',
  name: 'radarr-helper',
  septum: '^1.0',
  commands: [
    { name: 'help', description: 'command.help.description', respond: 'help.text' },
    {
      name: 'add',
      description: 'command.add.description',
      code: 'addMovie',
      args: [{ name: 'title', description: 'arg.title.description', required: true }],
    },
  ],
}

describe('enzymeChecks on conforming spores', () => {
  it('passes the radarr-helper example with its own context', async () => {
    const failures = await enzymeChecks({ name: 'radarr-helper', manifest: radarrManifest, module, context })
    expect(failures).toEqual([])
  })

  it('passes the radarr-helper spore on disk with its catalogues, invoking the handler with an empty bag', async () => {
    const spore = await loadSpore('radarr-helper')
    const { context: ctx, replies } = recording()
    const failures = await enzymeChecks({
      name: 'radarr-helper',
      manifest: spore.manifest,
      module: spore.module as EnzymeModule,
      context: ctx,
      catalogs: spore.catalogs,
    })
    expect(failures).toEqual([])
    expect(replies).toEqual([{ text: 'queued nothing' }])
  })

  it('passes a respond-only spore with no module at all', async () => {
    const spore = await loadSpore('respond-only')
    expect(spore.module).toBeUndefined()
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: spore.manifest,
      context,
      catalogs: spore.catalogs,
    })
    expect(failures).toEqual([])
  })

  it('accepts a catalogue that parses to null or holds no keys', async () => {
    const spore = await loadSpore('radarr-helper')
    const failures = await enzymeChecks({
      name: 'radarr-helper',
      manifest: spore.manifest,
      module,
      context,
      catalogs: { ...spore.catalogs, de: null, fr: {} },
    })
    expect(failures).toEqual([])
  })

  it('renders t() from the catalogues in the reader locale, cascading to en, keys rendering as themselves', async () => {
    const manifest = {
      kind: 'enzyme',
      name: 'greeter',
      septum: '^1.0',
      commands: [{ name: 'hi', description: 'hi.description', code: 'hi' }],
    }
    const greeter: EnzymeModule = {
      create: () => ({
        handlers: {
          async hi(_invocation, ctx) {
            await ctx.reply({ text: ctx.t('hi.text', { name: 'Ana' }) })
            await ctx.reply({ text: ctx.t('hi.description') })
            await ctx.reply({ text: ctx.t('no.such.key') })
            await ctx.reply({ text: ctx.t({ domain: 'common', key: 'yes' }) })
          },
        },
      }),
    }
    const { context: ctx, replies } = recording('fr')
    const failures = await enzymeChecks({
      name: 'greeter',
      manifest,
      module: greeter,
      context: ctx,
      catalogs: {
        en: { hi: { description: 'Say hello', text: 'Hello {name}' } },
        fr: { hi: { text: 'Bonjour {name}' } },
      },
    })
    expect(failures).toEqual([])
    // common is not the kit's to render: the author's own t() answers it.
    expect(replies.map((reply) => reply.text)).toEqual(['Bonjour Ana', 'Say hello', 'no.such.key', 'yes'])
  })

  it('gives start() the startContext when one is passed', async () => {
    const seen: string[] = []
    const starter: EnzymeModule = {
      create: () => ({
        async start(ctx) {
          seen.push(String(ctx.config.marker))
        },
        handlers: { go: async () => {} },
      }),
    }
    const failures = await enzymeChecks({
      name: 'starter',
      manifest: {
        kind: 'enzyme',
        name: 'starter',
        septum: '^1.0',
        commands: [{ name: 'go', description: 'go', code: 'go' }],
      },
      module: starter,
      context,
      startContext: (): EnzymeStartContext => ({ ...context(), config: { marker: 'from startContext' } }),
    })
    expect(failures).toEqual([])
    expect(seen).toEqual(['from startContext'])
  })
})

/** A one-command enzyme manifest around a code: handler named `run`. */
function oneCommand(extra: Record<string, unknown> = {}) {
  return {
    kind: 'enzyme',
    name: 'probe',
    septum: '^1.0',
    commands: [
      {
        name: 'run',
        description: 'command.run.description',
        code: 'run',
        args: [{ name: 'target', description: 'arg.target.description', required: true }],
      },
    ],
    ...extra,
  }
}

describe('enzymeChecks failures', () => {
  it('fails a handler that throws on an empty args bag, asking for a usage sentence', async () => {
    const strict: EnzymeModule = {
      create: () => ({
        handlers: {
          async run(invocation, ctx) {
            const target = invocation.args.target as string
            await ctx.reply({ text: target.toUpperCase() })
          },
        },
      }),
    }
    const failures = await enzymeChecks({ name: 'probe', manifest: oneCommand(), module: strict, context })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toStartWith('command "run": handler "run" threw on an empty args bag: TypeError: ')
    expect(failures[0]).toEndWith('; answer with a usage sentence instead')
  })

  it('fails an enzyme that reaches for ctx.reply in start(), as the narrowed start context has none', async () => {
    const spore = await loadSpore('eager-greeter')
    const failures = await enzymeChecks({
      name: 'eager-greeter',
      manifest: spore.manifest,
      module: spore.module as EnzymeModule,
      context,
    })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toStartWith('start(): threw with the start context: TypeError: ')
    expect(failures[0]).toContain('reply')
    expect(failures[0]).toEndWith('; start() gets no reply, principal, capabilities or locale')
  })

  it.each(['principal', 'capabilities', 'locale'] as const)(
    'narrows away ctx.%s from start()',
    async (member) => {
      const reaching: EnzymeModule = {
        create: () => ({
          async start(ctx) {
            const value = (ctx as EnzymeContext)[member]
            if (value === undefined) throw new TypeError(`ctx.${member} is undefined`)
          },
          handlers: { run: async () => {} },
        }),
      }
      const failures = await enzymeChecks({
        name: 'probe',
        manifest: oneCommand(),
        module: reaching,
        context,
      })
      expect(failures).toEqual([
        `start(): threw with the start context: TypeError: ctx.${member} is undefined; ` +
          'start() gets no reply, principal, capabilities or locale',
      ])
    },
  )

  it('fails a code: command whose handler the module does not export', async () => {
    const empty: EnzymeModule = { create: () => ({ handlers: {} }) }
    const failures = await enzymeChecks({ name: 'probe', manifest: oneCommand(), module: empty, context })
    expect(failures).toEqual(['command "run": the module\'s handlers have no "run" function'])
  })

  it('fails a code: command when no module is given', async () => {
    const failures = await enzymeChecks({ name: 'probe', manifest: oneCommand(), context })
    expect(failures).toEqual(['command "run": code "run" needs a module, and none was given'])
  })

  it('fails a command or arg description that resolves in no catalogue', async () => {
    const quiet: EnzymeModule = { create: () => ({ handlers: { run: async () => {} } }) }
    const failures = await enzymeChecks({
      name: 'probe',
      manifest: oneCommand(),
      module: quiet,
      context,
      catalogs: { en: { command: { run: { description: 'Run it' } } }, fr: null },
    })
    expect(failures).toEqual([
      'command "run", arg "target": description "arg.target.description" resolves in no catalogue (en, fr), ' +
        'so it would render literally',
    ])
  })

  it('fails a literal description when the catalogues lack it entirely', async () => {
    const spore = await loadSpore('radarr-helper')
    const manifest = structuredClone(radarrManifest)
    manifest.commands[0]!.description = 'Show what this plugin can do'
    const failures = await enzymeChecks({
      name: 'radarr-helper',
      manifest,
      module,
      context,
      catalogs: spore.catalogs,
    })
    expect(failures).toEqual([
      'command "help": description "Show what this plugin can do" resolves in no catalogue (en), ' +
        'so it would render literally',
    ])
  })

  it('fails a catalogue key that does not compile as ICU, naming locale and key', async () => {
    const spore = await loadSpore('film-night')
    const failures = await enzymeChecks({
      name: 'film-night',
      manifest: spore.manifest,
      context,
      catalogs: spore.catalogs,
    })
    expect(spore.catalogs.de).toBeNull()
    expect(failures).toHaveLength(1)
    expect(failures[0]).toStartWith('catalogue "en": key "tonight.text" does not compile: UNCLOSED_TAG')
    expect(failures[0]).toEndWith('germination would leave the whole spore dormant')
  })

  it('fails a catalogue that is not a mapping of keys', async () => {
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: (await loadSpore('respond-only')).manifest,
      context,
      catalogs: { en: ['pong'] },
    })
    expect(failures).toContain('catalogue "en": expected a mapping of keys, found a list')
  })

  it('fails a respond: message that needs a value nothing supplies', async () => {
    const failures = await enzymeChecks({
      name: 'ping',
      manifest: (await loadSpore('respond-only')).manifest,
      context,
      catalogs: {
        en: {
          command: { ping: { description: 'Ping' }, about: { description: 'About' } },
          about: { text: 'Made by {author}' },
        },
      },
    })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toStartWith('command "about": respond "about.text" cannot render in "en": ')
    expect(failures[0]).toEndWith('; a respond: message has no values to interpolate')
  })

  it('fails a handler calling ctx.t() for a domain its manifest does not declare, and lets a required one through', async () => {
    const spore = await loadSpore('core-reader')
    const { context: ctx, replies } = recording()
    const failures = await enzymeChecks({
      name: 'core-reader',
      manifest: spore.manifest,
      module: spore.module as EnzymeModule,
      context: ctx,
      catalogs: spore.catalogs,
    })
    expect(failures).toEqual([
      'command "prefix": handler "prefix" called ctx.t() for domain "core", which is neither its own, common, ' +
        'nor a rhiza its manifest requires',
    ])
    // The any_of alternative sonarr is readable; the author's t() renders it.
    expect(replies).toEqual([{ text: 'shows.none' }])
  })

  it('polices domains through a frozen context too', async () => {
    const spore = await loadSpore('core-reader')
    const failures = await enzymeChecks({
      name: 'core-reader',
      manifest: spore.manifest,
      module: spore.module as EnzymeModule,
      context: () => Object.freeze(context()),
      catalogs: spore.catalogs,
    })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toStartWith('command "prefix": handler "prefix" called ctx.t() for domain "core"')
  })

  it('does not police domains without catalogues, as the author asked for no translation checks', async () => {
    const spore = await loadSpore('core-reader')
    const failures = await enzymeChecks({
      name: 'core-reader',
      manifest: spore.manifest,
      module: spore.module as EnzymeModule,
      context,
    })
    expect(failures).toEqual([])
  })

  it('fails start() calling ctx.t() for an undeclared domain', async () => {
    const nosy: EnzymeModule = {
      create: () => ({
        async start(ctx) {
          ctx.t({ domain: 'radarr', key: 'ready' })
        },
        handlers: { run: async () => {} },
      }),
    }
    const failures = await enzymeChecks({
      name: 'probe',
      manifest: oneCommand(),
      module: nosy,
      context,
      catalogs: {
        en: { command: { run: { description: 'Run' } }, arg: { target: { description: 'Target' } } },
      },
    })
    expect(failures).toEqual([
      'start(): called ctx.t() for domain "radarr", which is neither its own, common, nor a rhiza its manifest requires',
    ])
  })

  it('fails a t() call that leaves a placeholder unsupplied, as the bot would log it and answer with the key', async () => {
    const careless: EnzymeModule = {
      create: () => ({ handlers: { run: async (_invocation, ctx) => ctx.reply({ text: ctx.t('hello') }) } }),
    }
    const failures = await enzymeChecks({
      name: 'probe',
      manifest: oneCommand(),
      module: careless,
      context,
      catalogs: {
        en: {
          hello: 'Hello {name}',
          command: { run: { description: 'Run' } },
          arg: { target: { description: 'T' } },
        },
      },
    })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toStartWith('command "run": t("hello") cannot render in "en": ')
    expect(failures[0]).toEndWith('; the bot would answer with the key')
  })

  it('reports stop() throwing and skips commands when start() fails', async () => {
    const invoked: string[] = []
    const broken: EnzymeModule = {
      create: () => ({
        start: () => Promise.reject(new Error('radarr is down')),
        async stop() {
          throw new Error('never reached')
        },
        handlers: { run: async () => void invoked.push('run') },
      }),
    }
    const failures = await enzymeChecks({ name: 'probe', manifest: oneCommand(), module: broken, context })
    expect(failures).toEqual(['start(): threw with the start context: Error: radarr is down'])
    expect(invoked).toEqual([])

    const stopping: EnzymeModule = {
      create: () => ({
        async stop() {
          throw new Error('socket already closed')
        },
        handlers: { run: async () => void invoked.push('run') },
      }),
    }
    const stopFailures = await enzymeChecks({
      name: 'probe',
      manifest: oneCommand(),
      module: stopping,
      context,
    })
    expect(stopFailures).toEqual(['stop(): threw: Error: socket already closed'])
    expect(invoked).toEqual(['run'])
  })

  it('fails a module without create() or whose create() throws, without rejecting', async () => {
    const noCreate = await enzymeChecks({
      name: 'probe',
      manifest: oneCommand(),
      module: {} as EnzymeModule,
      context,
    })
    expect(noCreate).toEqual(['module: the default export has no create() function'])
    const throwing: EnzymeModule = {
      create: () => {
        throw new Error('cannot read settings')
      },
    }
    const failures = await enzymeChecks({ name: 'probe', manifest: oneCommand(), module: throwing, context })
    expect(failures).toEqual(['module: create() threw: Error: cannot read settings'])
  })

  it('fails a handler when context() itself throws, naming context()', async () => {
    const quiet: EnzymeModule = { create: () => ({ handlers: { run: async () => {} } }) }
    const failures = await enzymeChecks({
      name: 'probe',
      manifest: oneCommand(),
      module: quiet,
      context: () => {
        throw new Error('stub not ready')
      },
    })
    expect(failures).toEqual(['command "run": context() threw: Error: stub not ready'])
  })
})
