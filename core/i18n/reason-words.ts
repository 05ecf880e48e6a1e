import type { TranslatableRef } from '@mycelo/septum'
import type { IntlMessageFormat } from 'intl-messageformat'
import { coreDomain, SILENT } from '../boot/catalogues.ts'
import { LITERAL, Translator } from './translator.ts'

/**
 * Why a spore is dormant or disabled is kept as English text: in the install table, in log lines,
 * and compared by the code that re-checks it. The core words each such reason from its catalogue
 * (`core` keys `reason.*`) and remembers which ref gave which text, so a surface can word the same
 * reason again in its reader's language. Bounded: the oldest texts are forgotten first.
 */
const REMEMBERED = 4096
const spoken = new Map<string, TranslatableRef>()
const constants = new Map<string, TranslatableRef>()
let voice: Translator | undefined

/** The runtime's translator words reasons once it exists, so the core catalogue is compiled once. */
export function wordReasonsWith(translator: Translator): void {
  voice = translator
}

/**
 * A reason in English from `reason.<key>`, remembered with its ref. `forReader` replaces params for
 * a reader, e.g. a fault that carries its own catalogue ref where the English text has its message.
 */
export function coreReason(
  key: string,
  params: Readonly<Record<string, unknown>> = {},
  forReader: Readonly<Record<string, unknown>> = {},
): string {
  const text = render(englishVoice(), { domain: 'core', key: `reason.${key}`, params }, 'en')
  const ref: TranslatableRef = { domain: 'core', key: `reason.${key}`, params: { ...params, ...forReader } }
  spoken.delete(text)
  spoken.set(text, ref)
  if (spoken.size > REMEMBERED) spoken.delete(spoken.keys().next().value as string)
  return text
}

/** A part of a reason, worded by `reason.<key>` wherever the whole reason is worded. */
export function reasonPart(key: string, params: Readonly<Record<string, unknown>> = {}): TranslatableRef {
  return { domain: 'core', key: `reason.${key}`, params }
}

/** A kept reason in the reader's words where the core wrote it; anything else as it was kept. */
export function reasonInWords(translator: Translator, text: string, locale: string): string {
  if (locale === 'en') return text
  const ref = spoken.get(text) ?? constants.get(text) ?? readBack(text)
  if (ref === undefined) return text
  const worded = render(translator, ref, locale)
  return worded === ref.key ? text : worded
}

function render(translator: Translator, ref: TranslatableRef, locale: string): string {
  const params: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(ref.params ?? {})) {
    params[name] = isRef(value) ? render(translator, value, locale) : value
  }
  return translator.render({ ...ref, params }, locale)
}

function isRef(value: unknown): value is TranslatableRef {
  if (typeof value !== 'object' || value === null) return false
  const { domain, key } = value as Record<string, unknown>
  return typeof domain === 'string' && typeof key === 'string'
}

// Before any runtime (germination, a unit test, the probe child): the process's own compiled
// catalogue, which the runtime is later assembled with, so it is never compiled a second time.
function englishVoice(): Translator {
  if (voice !== undefined) return voice
  const english = new Translator({ defaultLocale: 'en', logger: SILENT })
  english.addDomain('core', coreDomain())
  voice = english
  return english
}

/**
 * A reason the code keeps as a constant and compares by identity: its text stays as written (the
 * English catalogue says the same), worded by `reason.<key>` for a reader.
 */
export function constantReason(key: string, text: string): string {
  constants.set(text, { domain: 'core', key: `reason.${key}` })
  return text
}

let templates: { readonly key: string; readonly pattern: RegExp }[] | undefined

/**
 * The ref of a reason worded in another process (the first start's probe, an earlier run, kept in
 * the install table): matched back against the English `reason.*` templates it was worded from.
 */
function readBack(text: string): TranslatableRef | undefined {
  templates ??= englishTemplates()
  for (const { key, pattern } of templates) {
    const found = pattern.exec(text)
    if (found) return { domain: 'core', key, params: { ...found.groups } }
  }
  return undefined
}

type Element = ReturnType<IntlMessageFormat['getAst']>[number]

/** Read from the compiled English catalogue's parsed messages, not from its file a second time. */
function englishTemplates(): { key: string; pattern: RegExp }[] {
  const messages = coreDomain().get('en')?.messages
  // Keys first: the catalogue compiles a message when it is read, and only reasons are wanted here.
  const reasons = [...(messages?.keys() ?? [])]
    .filter((key) => key.startsWith('reason.'))
    .map((key) => ({ key, elements: messages!.get(key)!.getAst() }))
  // The most literal words first: `{step} failed: {fault}` must not claim a migration's failure.
  const literal = (elements: readonly Element[]) =>
    elements.reduce((length, element) => length + (element.type === LITERAL ? element.value.length : 0), 0)
  return reasons
    .sort((a, b) => literal(b.elements) - literal(a.elements))
    .map(({ key, elements }) => ({ key, pattern: patternOf(elements) }))
}

/** A message as a pattern: its text literally, each argument (a select's whole body included) a named group. */
function patternOf(elements: readonly Element[]): RegExp {
  const source = elements.map((element) =>
    element.type === LITERAL ? literally(element.value) : `(?<${(element as { value: string }).value}>.*?)`,
  )
  return new RegExp(`^${source.join('')}$`, 's')
}

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
