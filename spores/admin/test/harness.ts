import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type CodeCommand,
  compileCatalog,
  type EnzymeContext,
  type EnzymeManifest,
  flattenCatalog,
  type IncomingMessage,
  type Logger,
  parseManifest,
  type Translate,
} from '@mycelo/septum'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { parse } from 'yaml'
import module from '../src/index.ts'
import type { FakeMycelium } from './fake-mycelium.ts'

const root = join(import.meta.dir, '..')

export const manifest: unknown = parse(readFileSync(join(root, 'spore.yaml'), 'utf8'))
const parsed = parseManifest(manifest) as EnzymeManifest
export const commands = parsed.commands as readonly CodeCommand[]

/** The spore's own catalogues, parsed as germination parses them. */
export const catalogs: Readonly<Record<string, unknown>> = {
  en: parse(readFileSync(join(root, 'translations', 'en.yaml'), 'utf8')),
  fr: parse(readFileSync(join(root, 'translations', 'fr.yaml'), 'utf8')),
}

export function keysOf(locale: string): string[] {
  return [...flattenCatalog(locale, catalogs[locale]).keys()].sort()
}

/** The shipped `common` catalogue, for the keys the admin spore words with it as it is. */
function realCommon(locale: string): { setting: unknown; refusal: Record<string, string> } {
  const file = join(import.meta.dir, '..', '..', '..', 'translations', 'common', `${locale}.yaml`)
  return parse(readFileSync(file, 'utf8')) as { setting: unknown; refusal: Record<string, string> }
}

/** Stands in for the `common` domain, where the core's refusals are expected to live. */
const common = {
  en: {
    refusal: {
      ...realCommon('en').refusal,
      unknownPrincipal: 'No person has the id {id}.',
      unknownRole: 'There is no role called {role}.',
      builtinRole: 'The role {role} is builtin and cannot change.',
      roleTaken: 'A role called {role} exists already.',
      patternTwice: 'The pattern {pattern} is listed twice.',
      unknownPlugin: 'No plugin called {plugin} is installed.',
      incomplete: 'configuration is incomplete: {issues}',
      undeclaredKey: '{plugin} has no setting called {key}.',
      settingAbsent: '{plugin} has no stored value for {key}.',
      unknownCommand: 'There is no command {command}.',
      unknownInhibitor: 'There is no filter called {inhibitor}.',
      targetTaken: '{channel} {conversationId} is a target already.',
      unknownTarget: '{channel} {conversationId} is not a target.',
      unknownConversation: 'The bot has not seen {channel} {conversationId}.',
    },
  },
  fr: {
    refusal: {
      ...realCommon('fr').refusal,
      unknownPrincipal: 'Aucune personne n’a l’identifiant {id}.',
    },
    setting: realCommon('fr').setting,
  },
}
common.en = { ...common.en, setting: realCommon('en').setting } as typeof common.en

const domains = new Map([
  ['admin', catalogs],
  ['common', common],
])
const compiled = new Map(
  [...domains].map(([domain, locales]) => [
    domain,
    new Map(Object.entries(locales).map(([locale, raw]) => [locale, compileCatalog(locale, raw).messages])),
  ]),
)

/** Renders `admin` and `common` in the reader's locale, falling back to English; other domains throw. */
export function translator(readerLocale: string): Translate {
  return (key, params, locale) => {
    const ref = typeof key === 'string' ? { domain: 'admin', key } : key
    const catalogue = compiled.get(ref.domain)
    if (catalogue === undefined) throw new Error(`t(): admin may not read domain "${ref.domain}"`)
    for (const candidate of [locale ?? readerLocale, 'en']) {
      const message = catalogue.get(candidate)?.get(ref.key)
      if (message !== undefined) return String(message.format({ ...ref.params, ...params }))
    }
    return ref.key
  }
}

export interface Recorded {
  readonly replies: string[]
  readonly warnings: string[]
}

export function contextFor(mycelium: FakeMycelium, recorded: Recorded, locale = 'en'): EnzymeContext {
  const logger: Logger = {
    debug() {},
    info() {},
    warn(message) {
      recorded.warnings.push(message)
    },
    error() {},
    child: () => logger,
  }
  const none = { has: () => false, list: () => [] }
  return {
    config: {},
    logger,
    rhiza: <T>(name: string) => {
      if (name !== 'mycelium') throw new Error(`no rhiza ${name}`)
      return mycelium as T
    },
    has: (name) => name === 'mycelium',
    storage: memoryStorage(),
    schedule: manualSchedule(),
    async reply(content) {
      recorded.replies.push(content.text ?? '')
    },
    async push() {},
    capabilities: none,
    capabilitiesOf: () => none,
    principal: {
      id: 'p-owner',
      displayName: 'Olivia',
      identities: [{ channel: 'console', externalId: 'owner' }],
      roles: ['owner'],
    },
    locale,
    on() {},
    t: translator(locale),
    localeFor: () => Promise.resolve('en'),
  }
}

export interface RunOptions {
  readonly args?: Record<string, string>
  /** The words after the command, verbatim; the args joined by spaces unless given. */
  readonly rest?: string
  readonly locale?: string
  readonly group?: boolean
  /** The command word as typed; `/<command>` unless given. */
  readonly typed?: string
}

/** Invokes one command as the bus would, and answers what it replied. */
export async function run(
  mycelium: FakeMycelium,
  command: string,
  options: RunOptions = {},
): Promise<Recorded & { readonly reply: string }> {
  const declared = commands.find((candidate) => candidate.name === command)
  if (declared === undefined) throw new Error(`no command ${command}`)
  const args = options.args ?? {}
  const rest = options.rest ?? Object.values(args).join(' ')
  const message: IncomingMessage = {
    channel: 'console',
    conversationId: 'c1',
    messageId: 'm1',
    sender: { channel: 'console', externalId: 'owner' },
    text: `${options.typed ?? `/${command}`} ${rest}`.trim(),
    attachments: [],
    raw: null,
    receivedAt: new Date(),
    ...(options.group === true && { group: { id: 'g1', name: 'Friends' } }),
  }
  const recorded: Recorded = { replies: [], warnings: [] }
  // create() may answer a promise (the contract's Awaitable): a spore in a host always does.
  const handler = (await module.create()).handlers[declared.code]
  if (handler === undefined) throw new Error(`no handler ${declared.code}`)
  await handler({ command, args, rest, message }, contextFor(mycelium, recorded, options.locale))
  return { ...recorded, reply: recorded.replies.join('\n---\n') }
}
