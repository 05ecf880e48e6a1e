import { bindArgs, parseCommand } from '../command/index.ts'
import { errorText } from '../conformance/failures.ts'
import type {
  ChannelCapability,
  ChannelIdentity,
  CodeCommand,
  EnzymeContext,
  Health,
  HyphaContext,
  IncomingMessage,
  InhibitorContext,
  InhibitorManifest,
  OutgoingContent,
  PushTarget,
  Verdict,
} from '../contract/index.ts'
import { isCodeCommand } from '../contract/manifest.ts'
import { SEPTUM_VERSION } from '../version.ts'
import { authorise, findRoute, messageOf, RefusedCommandError, type SayOptions } from './commands.ts'
import {
  capabilitiesOf,
  enzymeStartContext,
  handlerContext,
  inhibitorContext,
  type LoggedLine,
  type Pushed,
  sporeContext,
  targetKey,
  type World,
} from './contexts.ts'
import { DormantSporeError, type Germinated, germinate, type SporeUnderTest } from './germinate.ts'
import { memoryBotStorage, type SqliteFile, sqliteFile } from './sqlite-storage.ts'

export interface TestBotOptions {
  /** The spore under test. */
  readonly spore: SporeUnderTest
  /** The rhizas it requires, started first in the order given; the bot refuses a missing mandatory one. */
  readonly rhizas?: Readonly<Record<string, SporeUnderTest>>
  /** What `ctx.rhiza('mycelium')` answers, for a spore that requires the core's scopes. */
  readonly mycelium?: unknown
  /** The command prefix; `/` unless given. */
  readonly prefix?: string
  /** Where a missing key cascades to and what start(), inhibitors and pushes speak; `en` unless given. */
  readonly defaultLocale?: string
  /** Where the schedules' clock starts; 2026-01-01T00:00:00Z unless given. */
  readonly now?: Date | string
  /** Role names and their command patterns (`*`, `spore.*`, `spore.command`): when given, commands are authorised. */
  readonly roles?: Readonly<Record<string, readonly string[]>>
  /** Capabilities by channel; a channel not listed has them all. */
  readonly channels?: Readonly<Record<string, readonly ChannelCapability[]>>
  /**
   * The members of each group, keyed `channel/groupId` (or the bare id), as `groupMembers()`
   * answers them; an unknown group answers null, as a channel that cannot tell does.
   */
  readonly groupMembers?: Readonly<Record<string, readonly ChannelIdentity[]>>
  /** The septum the bot runs, for the range check; this package's own unless given. */
  readonly septumVersion?: string
  /**
   * Where the spores' storage lives: `memory` (the default, fresh for every bot), `sqlite` (a new
   * file in the system's temp folder, removed at stop()), or `{ sqlite: path }` (that file, kept:
   * a second bot on it finds what the first wrote, and runs only migrations it has not applied).
   * SQLite needs Bun, or Node 22.5 or later.
   */
  readonly storage?: 'memory' | 'sqlite' | { readonly sqlite: string }
}

export interface TestBot {
  /** Says `text` as a person would; answers the text of every reply, in order ([] when none, or refused by admission). */
  say(text: string, options?: SayOptions): Promise<string[]>
  /** Every inhibitor's verdict on `text`, in the order admission asks them; allow when none refuses. */
  inspect(text: string, options?: SayOptions): Promise<Verdict>
  /**
   * The context a handler of the spore under test gets for a message said with `options` (what the
   * conformance kit's `context` asks for); a rhiza's start() takes it too.
   */
  context<C = never>(options?: SayOptions): EnzymeContext<C>
  /** The context an inhibitor under test gets. */
  inhibitorContext<C = never>(): InhibitorContext<C>
  /** The context a hypha under test gets: what it emits lands in `heard`. */
  hyphaContext<C = never>(): HyphaContext<C>
  /** A rhiza's api, as a spore requiring it receives it. */
  rhiza<T = unknown>(name: string): T
  /** A rhiza's (or a hypha's) health(). */
  health(name?: string): Promise<Health>
  /** The schedules' clock: `advance` runs what falls due, in order, and answers what was pushed meanwhile. */
  readonly clock: { now(): Date; advance(ms: number): Promise<Pushed[]> }
  /** Sets a conversation's stored locale, which `ctx.localeFor()` answers. */
  setConversationLocale(target: PushTarget, locale: string): void
  /** The spore under test's (or a rhiza's) storage, to read or seed. */
  storage(name?: string): Germinated['storage']
  /** The SQLite file the storage is in, when the bot was given one (or made one). */
  readonly storageFile: string | undefined
  /** The spore under test's (or a rhiza's) schedules, on the bot's clock. */
  schedule(name?: string): Germinated['schedule']
  /** A hypha under test: what it emitted, and its send(). */
  readonly heard: readonly IncomingMessage[]
  send(conversationId: string, content: OutgoingContent): Promise<void>
  readonly pushes: readonly Pushed[]
  readonly logs: readonly LoggedLine[]
  /** Stops the spore, then its rhizas in reverse. */
  stop(): Promise<void>
}

/**
 * Starts the spore (and the rhizas it requires) in this process, through germination's checks,
 * with in-memory storage and a clock that moves only when the test says. Runs on Node and Bun.
 */
export async function testBot(options: TestBotOptions): Promise<TestBot> {
  const defaultLocale = options.defaultLocale ?? 'en'
  const now = new Date(options.now ?? '2026-01-01T00:00:00Z')
  const prefix = options.prefix ?? '/'
  const spores = new Map<string, Germinated>()
  const heard: IncomingMessage[] = []
  const world: World = {
    defaultLocale,
    logs: [],
    pushes: [],
    listeners: [],
    channels: options.channels ?? {},
    conversationLocales: new Map(),
    groupMembers: options.groupMembers ?? {},
    started: (name) => spores.get(name),
    mycelium: options.mycelium,
  }
  const file: SqliteFile | undefined =
    options.storage === undefined || options.storage === 'memory'
      ? undefined
      : await sqliteFile(options.storage === 'sqlite' ? undefined : options.storage.sqlite)
  const germinateOptions = {
    storage: (spore: string) => file?.storageOf(spore) ?? memoryBotStorage(),
    septumVersion: options.septumVersion ?? SEPTUM_VERSION,
    defaultLocale,
    now,
    log: (level: 'warn' | 'error', spore: string, message: string) =>
      void world.logs.push({ spore, level, message }),
  }
  const started: Germinated[] = []
  const stop = async () => {
    for (const spore of started.splice(0).reverse()) {
      const stopper = spore.instance?.stop
      if (typeof stopper === 'function') await stopper.call(spore.instance)
    }
    file?.close()
  }
  const start = async (under: SporeUnderTest) => {
    const spore = await germinate(under, germinateOptions)
    requireRhizas(spore, spores, options.mycelium !== undefined)
    spores.set(spore.name, spore)
    try {
      await startSpore(spore, world, heard)
    } catch (error) {
      throw new DormantSporeError(spore.name, `its start threw: ${errorText(error)}`)
    }
    started.push(spore)
    return spore
  }
  let main: Germinated
  try {
    for (const rhiza of Object.values(options.rhizas ?? {})) await start(rhiza)
    main = await start(options.spore)
  } catch (error) {
    await stop()
    throw error
  }
  const running = (name: string) => {
    const spore = spores.get(name)
    if (spore === undefined) throw new Error(`no spore "${name}" runs in this test bot`)
    return spore
  }
  const inhibitors = [...spores.values()].filter((spore) => spore.manifest.kind === 'inhibitor')
  const enzymes = [...spores.values()].filter((spore) => spore.manifest.kind === 'enzyme')

  const inspect = async (message: IncomingMessage): Promise<Verdict> => {
    for (const inhibitor of inhibitors) {
      try {
        const verdict = (await (inhibitor.instance!.inspect as (...args: unknown[]) => unknown).call(
          inhibitor.instance,
          message,
          inhibitorContext(world, inhibitor),
        )) as Verdict
        if (!verdict.allow) return verdict
      } catch (error) {
        // As admission does: an enforcing inhibitor that throws refuses; an advisory one is skipped.
        const enforcing = (inhibitor.manifest as InhibitorManifest).enforcing === true
        world.logs.push({
          spore: inhibitor.name,
          level: 'warn',
          message: `inspect() threw: ${errorText(error)}`,
        })
        if (enforcing) return { allow: false, reason: `${inhibitor.name} failed: ${errorText(error)}` }
      }
    }
    return { allow: true }
  }

  return {
    async say(text, sayOptions = {}) {
      const message = messageOf(text, sayOptions)
      if (!(await inspect(message)).allow) return []
      for (const { listener } of world.listeners) await listener(message)
      const parsed = parseCommand(text, prefix)
      if (parsed === null) return []
      const route = findRoute(enzymes, parsed.name)
      authorise(route, sayOptions, options.roles)
      const channel = message.channel
      for (const capability of route.command.capabilities ?? [])
        if (!capabilitiesOf(world, channel).has(capability))
          throw new RefusedCommandError(`/${parsed.name} needs ${capability}, which ${channel} cannot do`)
      if (!isCodeCommand(route.command))
        return [
          route.spore.translator(sayOptions.locale ?? defaultLocale, world.started)(route.command.respond),
        ]
      const replies: string[] = []
      const argNames = ((route.command as CodeCommand).args ?? []).map((arg) => arg.name)
      const handler = (route.spore.instance?.handlers as Record<string, unknown> | undefined)?.[
        route.command.code
      ]
      if (typeof handler !== 'function')
        throw new RefusedCommandError(`${route.spore.name} has no handler "${route.command.code}"`)
      const context = handlerContext({ world, spore: route.spore, message, options: sayOptions, replies })
      const invocation = {
        command: route.command.name,
        args: bindArgs(argNames, parsed),
        rest: parsed.rest,
        message,
      }
      await handler.call(route.spore.instance?.handlers, invocation, context)
      return replies
    },
    inspect: (text, sayOptions = {}) => inspect(messageOf(text, sayOptions)),
    context: <C>(sayOptions: SayOptions = {}) =>
      handlerContext({
        world,
        spore: main,
        message: messageOf('', sayOptions),
        options: sayOptions,
        replies: [],
      }) as EnzymeContext<C>,
    inhibitorContext: <C>() => inhibitorContext(world, main) as InhibitorContext<C>,
    hyphaContext: <C>() =>
      ({
        ...sporeContext(world, main),
        emit: async (message: IncomingMessage) => void heard.push(message),
      }) as HyphaContext<C>,
    rhiza<T>(name: string): T {
      const spore = spores.get(name)
      if (spore?.manifest.kind !== 'rhiza') throw new Error(`no rhiza "${name}" runs in this test bot`)
      return spore.instance!.api as T
    },
    async health(name = main.name) {
      const instance = spores.get(name)?.instance
      if (typeof instance?.health !== 'function') throw new Error(`"${name}" reports no health()`)
      return (await (instance.health as () => Promise<Health>).call(instance)) as Health
    },
    clock: {
      now: () => main.schedule.now(),
      async advance(ms) {
        const before = world.pushes.length
        for (const spore of spores.values()) await spore.schedule.advance(ms)
        return world.pushes.slice(before)
      },
    },
    setConversationLocale: (target, locale) => void world.conversationLocales.set(targetKey(target), locale),
    storage: (name = main.name) => running(name).storage,
    storageFile: file?.file,
    schedule: (name = main.name) => running(name).schedule,
    heard,
    async send(conversationId, content) {
      const send = main.instance?.send
      if (typeof send !== 'function') throw new Error(`${main.name} is not a hypha`)
      await send.call(main.instance, conversationId, content)
    },
    pushes: world.pushes,
    logs: world.logs,
    stop,
  }
}

function requireRhizas(spore: Germinated, running: ReadonlyMap<string, Germinated>, mycelium: boolean): void {
  for (const requirement of spore.manifest.requires ?? []) {
    const alternatives = 'any_of' in requirement ? requirement.any_of : [requirement]
    const present = alternatives.some((a) => (a.rhiza === 'mycelium' ? mycelium : running.has(a.rhiza)))
    if (present || requirement.optional === true) continue
    const names = alternatives.map((a) => a.rhiza).join(' or ')
    throw new Error(`${spore.name} would be dormant: it requires ${names}; pass it in the test bot's rhizas`)
  }
}

async function startSpore(spore: Germinated, world: World, heard: IncomingMessage[]): Promise<void> {
  const instance = spore.instance
  if (instance === undefined) return
  const call = (name: string, ...args: unknown[]) =>
    (instance[name] as (...args: unknown[]) => Promise<void>).call(instance, ...args)
  switch (spore.manifest.kind) {
    case 'rhiza':
      return call('start', sporeContext(world, spore))
    case 'enzyme':
      if (typeof instance.start === 'function') await call('start', enzymeStartContext(world, spore))
      return
    case 'inhibitor':
      if (typeof instance.start === 'function') await call('start', inhibitorContext(world, spore))
      return
    case 'hypha':
      await call('connect', {
        ...sporeContext(world, spore),
        emit: async (message: IncomingMessage) => void heard.push(message),
      })
      return call('listen')
  }
}
