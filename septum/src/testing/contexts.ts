import type {
  Capabilities,
  ChannelCapability,
  ChannelIdentity,
  EnzymeContext,
  EnzymeEvents,
  EnzymeStartContext,
  IncomingMessage,
  InhibitorContext,
  Logger,
  OutgoingContent,
  PushTarget,
  SporeContext,
} from '../contract/index.ts'
import { alternativesOf } from '../contract/manifest.ts'
import { CHANNEL_CAPABILITIES } from '../contract/vocabulary.ts'
import type { SayOptions } from './commands.ts'
import type { Germinated } from './germinate.ts'

/** One line a spore logged, as a test reads it. */
export interface LoggedLine {
  readonly spore: string
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
  readonly meta?: Readonly<Record<string, unknown>>
}

/** Something a spore sent on its own: a push, with where it went. */
export interface Pushed {
  readonly spore: string
  readonly target: PushTarget
  readonly content: OutgoingContent
}

/** What the contexts share: the bot's world as the spores see it. */
export interface World {
  readonly defaultLocale: string
  readonly logs: LoggedLine[]
  readonly pushes: Pushed[]
  readonly listeners: { spore: string; listener: EnzymeEvents['message'] }[]
  /** Each channel's capabilities; a channel not listed has them all. */
  readonly channels: Readonly<Record<string, readonly ChannelCapability[]>>
  readonly conversationLocales: Map<string, string>
  readonly groupMembers: Readonly<Record<string, readonly ChannelIdentity[]>>
  /** A started spore by name (a rhiza a spore requires, or the one under test). */
  started(name: string): Germinated | undefined
  readonly mycelium: unknown
}

export function loggerFor(world: World, spore: string, bindings: Record<string, unknown> = {}): Logger {
  const line = (level: LoggedLine['level']) => (message: string, meta?: Readonly<Record<string, unknown>>) =>
    void world.logs.push({ spore, level, message, meta: { ...bindings, ...meta } })
  return {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    child: (more) => loggerFor(world, spore, { ...bindings, ...more }),
  }
}

export function capabilitiesOf(world: World, channel: string): Capabilities {
  const list = world.channels[channel] ?? CHANNEL_CAPABILITIES
  return { has: (capability) => list.includes(capability), list: () => list }
}

/** What every kind's context carries; `rhiza()` answers only what the manifest requires. */
export function sporeContext(world: World, spore: Germinated): SporeContext<never> {
  const required = new Set((spore.manifest.requires ?? []).flatMap(alternativesOf).map((r) => r.rhiza))
  return {
    config: spore.config as never,
    logger: loggerFor(world, spore.name),
    rhiza<T>(name: string): T {
      if (!required.has(name)) throw new Error(`${spore.name} does not require the rhiza "${name}"`)
      if (name === 'mycelium') {
        if (world.mycelium === undefined) throw new Error('no mycelium was given to the test bot')
        return world.mycelium as T
      }
      const rhiza = world.started(name)
      if (rhiza?.instance === undefined) throw new Error(`the rhiza "${name}" is not running in the test bot`)
      return rhiza.instance.api as T
    },
    has: (name) =>
      required.has(name) &&
      (name === 'mycelium' ? world.mycelium !== undefined : world.started(name) !== undefined),
    storage: spore.storage,
    schedule: spore.schedule,
  }
}

const targetKey = (target: PushTarget) => `${target.channel}\u0000${target.conversationId}`

export function enzymeStartContext(world: World, spore: Germinated): EnzymeStartContext<never> {
  return {
    ...sporeContext(world, spore),
    async push(target, content) {
      world.pushes.push({ spore: spore.name, target, content })
    },
    capabilitiesOf: (channel) => capabilitiesOf(world, channel),
    on(event, listener) {
      if (event === 'message') world.listeners.push({ spore: spore.name, listener })
    },
    t: spore.translator(world.defaultLocale, world.started),
    localeFor: async (target) => world.conversationLocales.get(targetKey(target)) ?? world.defaultLocale,
  }
}

export function inhibitorContext(world: World, spore: Germinated): InhibitorContext<never> {
  return {
    ...sporeContext(world, spore),
    t: spore.translator(world.defaultLocale, world.started),
    groupMembers: async (channel, groupId) =>
      world.groupMembers[`${channel}/${groupId}`] ?? world.groupMembers[groupId] ?? null,
    requireCapability(channel, capability) {
      if (!capabilitiesOf(world, channel).has(capability)) throw new Error(`${channel} has no ${capability}`)
    },
  }
}

export { targetKey }

export interface HandlerContextOptions {
  readonly world: World
  readonly spore: Germinated
  readonly message: IncomingMessage
  readonly options: SayOptions
  readonly replies: string[]
}

/** A handler's context: the start context plus the reader, their locale and the channel's capabilities. */
export function handlerContext({
  world,
  spore,
  message,
  options,
  replies,
}: HandlerContextOptions): EnzymeContext<never> {
  const locale = options.locale ?? world.defaultLocale
  return {
    ...enzymeStartContext(world, spore),
    async reply(content) {
      replies.push(content.text ?? '')
    },
    principal: {
      id: message.sender.externalId,
      identities: [message.sender],
      roles: options.roles ?? ['member'],
      ...(options.displayName === undefined ? {} : { displayName: options.displayName }),
    },
    capabilities: capabilitiesOf(world, message.channel),
    locale,
    t: spore.translator(locale, world.started),
  }
}
