import { expect } from 'bun:test'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import {
  type ChannelCapability,
  type IncomingMessage,
  type MyceliumScope,
  type OutgoingContent,
  RefusalError,
  type TranslatableRef,
  type Translate,
} from '@mycelo/septum'
import { stringify } from 'yaml'
import type { MyceloConfig } from '../../boot/config.ts'
import type { Assembly } from '../../boot/runtime.ts'
import type { Germination } from '../../germination/index.ts'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import type { PluginStore, Store } from '../../store/index.ts'
import { type MemoryLogger, memoryLogger, type SporeFiles, writeSpore } from '../germination/fixtures.ts'
import { bootInFolder } from '../support/boot.ts'
import { realSpore } from '../support/real-spores.ts'

// Inside the repository, so a spore's imports of @mycelo/septum and zod resolve through its node_modules.
const TEMP_ROOT = resolve(import.meta.dir, '../../../.test-tmp')

/** What the spores of one bot leave for the test to read; spore modules find it on globalThis. */
export interface Probe {
  /** What `ctx.rhiza('mycelium')` answered each spore in its start(), by spore name. */
  readonly surfaces: Record<string, object>
  /** Each spore's start-time `ctx.t`, by spore name. */
  readonly translators: Record<string, Translate>
  /** Every send a probe hypha received, in order. */
  readonly sent: { channel: string; conversationId: string; content: OutgoingContent }[]
  /** Each probe hypha's `ctx.emit`, by channel: the real way in for a message. */
  readonly emitters: Record<string, (message: IncomingMessage) => Promise<void>>
}

export interface BotOptions {
  /** Spores by name; each is written to spores/<name>. */
  readonly spores: Readonly<Record<string, SporeFiles>>
  /** mycelo.yaml settings on top of the harness's own (owner chat/boss, default role member). */
  readonly config?: Readonly<Record<string, unknown>>
  /**
   * When given, every spore gets an install row before germination — enabled unless listed here —
   * so the listed ones are disabled before any of their code runs. Otherwise the store is fresh
   * and the first start enables whatever validates.
   */
  readonly disabled?: readonly string[]
  /** A folder a bot stopped with `halt` left: the same spores and database, started again. */
  readonly root?: string
}

export interface Bot {
  readonly root: string
  readonly config: MyceloConfig
  readonly store: Store
  readonly plugins: PluginStore
  readonly logger: MemoryLogger
  readonly germination: Germination
  readonly assembly: Assembly
  readonly runtime: CoreRuntime
  readonly probe: Probe
  /** The surface a spore received, failing the test when it stored none. */
  surface<T>(spore: string): T
  /** Emits through the named probe hypha, as its channel would. */
  emit(channel: string, text: string, options?: MessageOptions): Promise<void>
  /** The texts sent to one conversation since the last call, for one channel. */
  takeSent(channel: string, conversationId: string): string[]
  stop(): Promise<void>
  /** Stops the bot as its process ending would, keeping its folder for a `root` start. */
  halt(): Promise<void>
}

export interface MessageOptions {
  /** The sender's id on the channel; `boss` (the configured owner) unless given. */
  readonly from?: string
  readonly displayName?: string
  /** A group conversation; a dm with the sender otherwise. */
  readonly group?: string
}

/**
 * Starts a bot the way `bun run start` does — config file, SQLite file, owner bootstrap,
 * germination, the assembled runtime, startAll — over real spores written to a temp folder.
 */
export async function startBot(options: BotOptions): Promise<Bot> {
  await mkdir(TEMP_ROOT, { recursive: true })
  const root = options.root ?? (await mkdtemp(join(TEMP_ROOT, 'mycelium-')))
  for (const [name, files] of Object.entries(options.spores))
    await writeSpore(join(root, 'spores'), name, files)
  const settings = {
    spores: ['spores'],
    database: 'data/mycelo.db',
    owner: { channel: 'chat', userId: 'boss' },
    defaultRole: 'member',
    ...options.config,
  }
  const probe: Probe = { surfaces: {}, translators: {}, sent: [], emitters: {} }
  ;(globalThis as { myceliumProbe?: Probe }).myceliumProbe = probe
  const logger = memoryLogger()
  const running = await bootInFolder({
    folder: root,
    config: stringify(settings),
    logging: { logger, setSecrets: () => undefined },
    prepare(_store, plugins) {
      if (!options.disabled) return
      for (const name of Object.keys(options.spores)) {
        const enabled = !options.disabled.includes(name)
        plugins.recordInstall(name, { enabled, reason: enabled ? null : 'disabled by an operator' })
      }
    },
  })
  const { config, store, plugins, germination, assembly } = running
  let sequence = 0
  const read = new Map<string, number>()
  return {
    root,
    config,
    store,
    plugins,
    logger,
    germination,
    assembly,
    runtime: assembly.runtime,
    probe,
    surface<T>(spore: string): T {
      const surface = probe.surfaces[spore]
      if (surface === undefined) throw new Error(`spore ${spore} stored no mycelium surface`)
      return surface as T
    },
    emit(channel, text, messageOptions = {}) {
      const emit = probe.emitters[channel]
      if (!emit) throw new Error(`no probe hypha named ${channel}`)
      sequence += 1
      return emit(messageOf({ channel, text, sequence, ...messageOptions }))
    },
    takeSent(channel, conversationId) {
      const key = `${channel}\u0000${conversationId}`
      const matching = probe.sent.filter((s) => s.channel === channel && s.conversationId === conversationId)
      const fresh = matching.slice(read.get(key) ?? 0)
      read.set(key, matching.length)
      return fresh.map((s) => s.content.text ?? '')
    },
    async stop() {
      await running.stop()
      await rm(root, { recursive: true, force: true })
    },
    halt: () => running.stop(),
  }
}

function messageOf(options: MessageOptions & { channel: string; text: string; sequence: number }) {
  const from = options.from ?? 'boss'
  return {
    channel: options.channel,
    conversationId: options.group ?? `dm-${from}`,
    messageId: `m${options.sequence}`,
    ...(options.group ? { group: { id: options.group, name: `Group ${options.group}` } } : {}),
    sender: {
      channel: options.channel,
      externalId: from,
      ...(options.displayName ? { displayName: options.displayName } : {}),
    },
    text: options.text,
    attachments: [],
    raw: null,
    receivedAt: new Date(),
  }
}

/** The conversation id a dm with this sender gets from `emit`. */
export function dmWith(from: string): string {
  return `dm-${from}`
}

/** A spore of this checkout's spores/ folder, as the harness writes spores. */
export function shippedSpore(name: string): SporeFiles {
  const { 'spore.yaml': manifest, ...files } = realSpore(name)
  return { manifest: manifest!, files }
}

/** The probe as a spore module reads it, captured at create() so later calls keep their bot's. */
const PROBE = 'globalThis.myceliumProbe'

/**
 * A hypha that records every send into the probe and hands the test its `emit`; with `failSend`,
 * every send throws instead.
 */
export function probeHypha(
  name: string,
  capabilities: readonly ChannelCapability[] = [],
  behaviour: { readonly failSend?: boolean; readonly settings?: string } = {},
): SporeFiles {
  // A zod shape for the settings it declares: a spore with no schema has no settings to set.
  const preamble = behaviour.settings
    ? `import { defineConfig } from '@mycelo/septum'\nimport { z } from 'zod'\n`
    : ''
  const schema = behaviour.settings ? `configSchema: defineConfig(${behaviour.settings}),` : ''
  const send = behaviour.failSend
    ? `async send() { throw new Error('${name} is jammed') },
      async health() { return { state: 'degraded', detail: '${name} is jammed', checkedAt: new Date(0) } },`
    : `async send(conversationId, content) { probe.sent.push({ channel: '${name}', conversationId, content }) },`
  return {
    manifest: { kind: 'hypha', name, septum: '^1.0', capabilities: [...capabilities] },
    files: {
      'src/index.ts': `${preamble}export default {
  ${schema}
  create() {
    const probe = ${PROBE}
    return {
      async connect(ctx) { probe.emitters['${name}'] = (message) => ctx.emit(message) },
      async listen() {},
      async stop() {},
      ${send}
    }
  },
}
`,
    },
  }
}

export interface ProbeEnzymeOptions {
  /** Scopes granted on a mycelium requirement; no requirement at all when omitted. */
  readonly scopes?: readonly MyceliumScope[]
  /** Further manifest fields (commands replace the default `noop`). */
  readonly manifest?: Readonly<Record<string, unknown>>
  /** Extra files: translations, say. */
  readonly files?: Readonly<Record<string, string>>
  /** Handlers source, as object members; `noop` is always there. */
  readonly handlers?: string
  /** Source placed before the default export, e.g. imports and a configSchema constant. */
  readonly preamble?: string
  /** Members added to the default export, e.g. `configSchema,`. */
  readonly exports?: string
}

/** An enzyme whose start() stores what `ctx.rhiza('mycelium')` answers and its `ctx.t` in the probe. */
export function probeEnzyme(name: string, options: ProbeEnzymeOptions = {}): SporeFiles {
  const requires = options.scopes ? { requires: [{ rhiza: 'mycelium', scopes: [...options.scopes] }] } : {}
  return {
    manifest: {
      kind: 'enzyme',
      name,
      septum: '^1.0',
      ...requires,
      commands: [{ name: 'noop', description: 'command.noop.description', code: 'noop' }],
      ...options.manifest,
    },
    files: {
      'src/index.ts': `${options.preamble ?? ''}
export default {
  ${options.exports ?? ''}
  create() {
    const probe = ${PROBE}
    return {
      async start(ctx) {
        probe.surfaces['${name}'] = ctx.rhiza('mycelium')
        probe.translators['${name}'] = ctx.t
      },
      handlers: { async noop() {}, ${options.handlers ?? ''} },
    }
  },
}
`,
      ...options.files,
    },
  }
}

/** A rhiza whose health() answers healthy with a detail, or throws when `failHealth` is set. */
export function probeRhiza(name: string, behaviour: { readonly failHealth?: boolean } = {}): SporeFiles {
  const health = behaviour.failHealth
    ? `async health() { throw new Error('${name} does not answer') },`
    : `async health() { return { state: 'healthy', detail: '${name} is fine', checkedAt: new Date(0) } },`
  return {
    manifest: { kind: 'rhiza', name, septum: '^1.0' },
    files: {
      'src/index.ts': `export default {
  create: () => ({ api: {}, async start() {}, async stop() {}, ${health} }),
}
`,
    },
  }
}

/** An inhibitor refusing any message whose text contains `word`. */
export function wordInhibitor(name: string, word: string, enforcing: boolean): SporeFiles {
  return {
    manifest: { kind: 'inhibitor', name, septum: '^1.0', enforcing },
    files: {
      'src/index.ts': `export default {
  create: () => ({
    inspect: (message) =>
      message.text.includes('${word}') ? { allow: false, reason: 'said ${word}' } : { allow: true },
  }),
}
`,
    },
  }
}

/** A refused Outcome's text as a reader sees it; fails the test when the outcome was not refused. */
export function refusalText(
  bot: Bot,
  outcome: { readonly ok: boolean; readonly refusal?: TranslatableRef },
  locale = 'en',
): string {
  if (outcome.ok || outcome.refusal === undefined) throw new Error('expected a refusal, got ok')
  expect(outcome.refusal.domain).toBe('common')
  return bot.runtime.translator.render(outcome.refusal, locale)
}

/**
 * A rejected call's refusal as a reader sees it: fails the test when the call resolved, or
 * rejected with anything but a RefusalError whose English message is that refusal's.
 */
export async function rejectionText(bot: Bot, call: Promise<unknown>, locale = 'en'): Promise<string> {
  const error = await call.then(
    () => {
      throw new Error('expected a rejection for a refusal, the call resolved')
    },
    (rejection: unknown) => rejection,
  )
  expect(error).toBeInstanceOf(RefusalError)
  const { refusal, message } = error as RefusalError
  expect(refusal.domain).toBe('common')
  expect(message).toBe(bot.runtime.translator.render(refusal, 'en'))
  return bot.runtime.translator.render(refusal, locale)
}
