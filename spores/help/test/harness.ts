import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type CommandInfo,
  type CommandScope,
  compileCatalog,
  type EnzymeContext,
  flattenCatalog,
  type IncomingMessage,
  type Invocation,
  type Logger,
  type Mycelium,
  type Principal,
  type PrincipalInfo,
  type Translate,
} from '@mycelo/septum'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { parse } from 'yaml'
import module, { type HelpConfig } from '../src/index.ts'

const root = join(import.meta.dir, '..')

export const manifest: unknown = parse(readFileSync(join(root, 'spore.yaml'), 'utf8'))

/** The spore's own catalogues, parsed as germination parses them. */
export const catalogs: Readonly<Record<string, unknown>> = {
  en: parse(readFileSync(join(root, 'translations', 'en.yaml'), 'utf8')),
  fr: parse(readFileSync(join(root, 'translations', 'fr.yaml'), 'utf8')),
}

export function keysOf(locale: string): string[] {
  return [...flattenCatalog(locale, catalogs[locale]).keys()].sort()
}

const compiled = new Map(
  Object.entries(catalogs).map(([locale, parsed]) => [locale, compileCatalog(locale, parsed).messages]),
)

/** Renders the spore's own domain in the reader's locale; any other domain throws, as in the bot. */
export function translator(readerLocale: string): Translate {
  return (key, params, locale) => {
    if (typeof key !== 'string' && key.domain !== 'help') throw new Error(`domain ${key.domain} refused`)
    const name = typeof key === 'string' ? key : key.key
    const values = { ...(typeof key === 'string' ? {} : key.params), ...params }
    for (const candidate of [locale ?? readerLocale, 'en']) {
      const message = compiled.get(candidate)?.get(name)
      if (message !== undefined) return String(message.format(values))
    }
    return name
  }
}

export interface AvailableCall {
  readonly principal: PrincipalInfo | Principal | string
  readonly locale: string
  readonly where?: CommandScope
}

/** commands.read in memory: answers the commands it holds, recording each question. */
export class FakeCommands implements Mycelium<'commands.read'> {
  readonly calls: AvailableCall[] = []
  constructor(private readonly commands: (locale: string) => readonly CommandInfo[]) {}
  available(
    principal: PrincipalInfo | Principal | string,
    locale: string,
    where?: CommandScope,
  ): Promise<readonly CommandInfo[]> {
    this.calls.push({ principal, locale, ...(where !== undefined && { where }) })
    return Promise.resolve(this.commands(locale))
  }
  availableToNewcomers(locale: string): Promise<readonly CommandInfo[]> {
    return Promise.resolve(this.commands(locale))
  }
  locales(): Promise<readonly string[]> {
    return Promise.resolve(['en', 'fr'])
  }
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet }

export interface ContextOptions {
  readonly mycelium: FakeCommands
  readonly replies?: string[]
  readonly locale?: string
  readonly config?: Partial<HelpConfig>
}

export function contextFor(options: ContextOptions): EnzymeContext<HelpConfig> {
  const parsed = module.configSchema.safeParse(options.config ?? {})
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues))
  const locale = options.locale ?? 'en'
  const none = { has: () => false, list: () => [] }
  return {
    config: parsed.data,
    logger: quiet,
    rhiza: <T>(name: string) => {
      if (name !== 'mycelium') throw new Error(`no rhiza ${name}`)
      return options.mycelium as T
    },
    has: (name) => name === 'mycelium',
    storage: memoryStorage(),
    schedule: manualSchedule(),
    async reply(content) {
      options.replies?.push(content.text ?? '')
    },
    async push() {},
    capabilities: none,
    capabilitiesOf: () => none,
    principal: {
      id: 'p-alice',
      identities: [{ channel: 'console', externalId: 'alice' }],
      roles: ['member'],
    },
    locale,
    on() {},
    t: translator(locale),
    localeFor: () => Promise.resolve('en'),
  }
}

export function invocation(args: Record<string, string>, group?: { id: string }): Invocation {
  const message: IncomingMessage = {
    channel: 'console',
    conversationId: 'c1',
    messageId: 'm1',
    sender: { channel: 'console', externalId: 'alice' },
    text: `/help ${args.command ?? ''}`.trim(),
    attachments: [],
    raw: null,
    receivedAt: new Date(),
    ...(group !== undefined && { group }),
  }
  return { command: 'help', args, rest: args.command ?? '', message }
}
