import type { TranslatableRef } from '@mycelo/septum'
import type { IntlMessageFormat } from 'intl-messageformat'
import { coreCatalogues, SILENT } from '../boot/catalogues.ts'
import { Translator } from './translator.ts'

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

/** How a reason's list param (its setting problems) joins its items, in every language. */
export const LIST_SEPARATOR = '; '

/** A kept reason in one language's words, for a surface with no translator of its own (the report). */
export function reasonInLocale(text: string, locale: string): string {
  return reasonInWords(englishVoice(), text, locale)
}

function render(translator: Translator, ref: TranslatableRef, locale: string): string {
  const params: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(ref.params ?? {})) {
    params[name] = Array.isArray(value)
      ? value
          .map((item) => (isRef(item) ? render(translator, item, locale) : String(item)))
          .join(LIST_SEPARATOR)
      : isRef(value)
        ? render(translator, value, locale)
        : value
  }
  return translator.render({ ...ref, params }, locale)
}

/** A list of parts (see wordedList) in a reader's words. */
export function listInWords(
  translator: Translator,
  parts: readonly (TranslatableRef | string)[],
  locale: string,
): string {
  return parts
    .map((part) => (typeof part === 'string' ? part : render(translator, part, locale)))
    .join(LIST_SEPARATOR)
}

/**
 * A list of parts, each a ref or text already worded, as one param: in English joined for the
 * kept text, and for a reader each part in their words.
 */
export function wordedList(parts: readonly (TranslatableRef | string)[]): {
  text: string
  refs: readonly (TranslatableRef | string)[]
} {
  const english = englishVoice()
  return {
    text: parts
      .map((part) => (typeof part === 'string' ? part : render(english, part, 'en')))
      .join(LIST_SEPARATOR),
    refs: parts,
  }
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
  const { core, common } = coreCatalogues()
  english.addDomain('core', core)
  english.addDomain('common', common)
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

interface Template {
  readonly key: string
  readonly pattern: RegExp
  /** Per select argument, the option each literal wording was chosen by. */
  readonly options: ReadonlyMap<string, ReadonlyMap<string, string>>
}

let templates: readonly Template[] | undefined
let issueTemplates: readonly Template[] | undefined

/**
 * The ref of a reason worded in another process (the first start's probe, an earlier run, kept in
 * the install table): matched back against the English `reason.*` templates it was worded from.
 * Its list of setting problems is read back item by item, against the `common` words of each.
 */
function readBack(text: string): TranslatableRef | undefined {
  templates ??= englishTemplates('core', 'reason.')
  const found = matchTemplates(templates, text)
  if (found === undefined) return undefined
  const issues = found.params.issues
  if (typeof issues !== 'string') return { domain: 'core', ...found }
  return {
    domain: 'core',
    key: found.key,
    params: { ...found.params, issues: issues.split(LIST_SEPARATOR).map(issueBack) },
  }
}

/** One setting problem, `field: problem`, as refs when its English words are the catalogue's. */
function issueBack(item: string): TranslatableRef | string {
  issueTemplates ??= englishTemplates('common', 'config.')
  const at = item.indexOf(': ')
  if (at < 0) return item
  const problem = matchTemplates(issueTemplates, item.slice(at + 2))
  if (problem === undefined) return item
  const ref: TranslatableRef = {
    domain: 'core',
    key: 'reason.issue',
    params: { field: item.slice(0, at), problem: { domain: 'common', ...problem } },
  }
  // Only a reading that words the item again exactly is kept; anything else stays as it was.
  return render(englishVoice(), ref, 'en') === item ? ref : item
}

function matchTemplates(
  list: readonly Template[],
  text: string,
): { key: string; params: Record<string, unknown> } | undefined {
  for (const { key, pattern, options } of list) {
    const found = pattern.exec(text)
    if (!found) continue
    const params: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(found.groups ?? {})) {
      params[name] = options.get(name)?.get(value) ?? value
    }
    return { key, params }
  }
  return undefined
}

type Element = ReturnType<IntlMessageFormat['getAst']>[number]
/** The ICU parser's element types for plain text and for a select (its TYPE.literal and TYPE.select). */
const LITERAL = 0
const SELECT = 5

/** Read from the compiled English catalogue's parsed messages, not from its file a second time. */
function englishTemplates(domain: 'core' | 'common', prefix: string): Template[] {
  const messages = coreCatalogues()[domain].get('en')?.messages
  // Keys first: the catalogue compiles a message when it is read, and only these are wanted here.
  const chosen = [...(messages?.keys() ?? [])]
    .filter((key) => key.startsWith(prefix))
    .map((key) => ({ key, elements: messages!.get(key)!.getAst() }))
  // The most literal words first: `{step} failed: {fault}` must not claim a migration's failure.
  const literal = (elements: readonly Element[]) =>
    elements.reduce((length, element) => length + (element.type === LITERAL ? element.value.length : 0), 0)
  return chosen
    .sort((a, b) => literal(b.elements) - literal(a.elements))
    .map(({ key, elements }) => ({ key, ...patternOf(elements) }))
}

/**
 * A message as a pattern: its text literally, each argument a named group. A select whose options
 * are plain words matches one of them and reads back the option that chose it; any other
 * argument (a plural, a select with arguments inside) is matched whole.
 */
function patternOf(elements: readonly Element[]): Omit<Template, 'key'> {
  const options = new Map<string, Map<string, string>>()
  const source = elements.map((element) => {
    if (element.type === LITERAL) return literally(element.value)
    const name = (element as { value: string }).value
    if (element.type === SELECT) {
      const words = plainOptions(element as unknown as { options: Record<string, { value: Element[] }> })
      if (words !== undefined) {
        options.set(name, words)
        const alternatives = [...words.keys()].sort((a, b) => b.length - a.length).map(literally)
        return `(?<${name}>${[...alternatives, '.*?'].join('|')})`
      }
    }
    return `(?<${name}>.*?)`
  })
  return { pattern: new RegExp(`^${source.join('')}$`, 's'), options }
}

/** A select's options worded in plain text, each wording to the first option that gives it. */
function plainOptions(select: {
  options: Record<string, { value: Element[] }>
}): Map<string, string> | undefined {
  const words = new Map<string, string>()
  for (const [option, { value }] of Object.entries(select.options)) {
    if (option === 'other') continue
    if (!value.every((element) => element.type === LITERAL)) return undefined
    const text = value.map((element) => (element as { value: string }).value).join('')
    if (!words.has(text)) words.set(text, option)
  }
  return words
}

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
