/** A compiled message: intl-messageformat's, or anything that formats the same way. */
export interface FormattableMessage {
  format(values?: Record<string, never>): unknown
  /** intl-messageformat's parsed message: read once, to join the plain ones without it. */
  getAst?(): readonly { readonly type: number; readonly value?: unknown }[]
}

/** Put after a value that ends a sentence itself; never part of a message or of a value. */
const ENDED = '\u2063'

/** A message's own formatter: its values in, its text out (see formatterOf). */
export type MessageFormatter = (params?: Readonly<Record<string, unknown>>) => string

/**
 * Formats a compiled message to text. A message that closes with a period after a value ("… is
 * dormant: {reason}.") would print two when the value is a sentence of its own ("… in chat."):
 * the message's period right after such a value is dropped, whatever the message and the value.
 */
export function formatMessage(
  message: FormattableMessage,
  params?: Readonly<Record<string, unknown>>,
): string {
  return formatterOf(message)(params)
}

const formatters = new WeakMap<FormattableMessage, MessageFormatter>()

/**
 * The formatter formatMessage uses for `message`, made once per message: one that keeps it (a
 * translator's key memory) formats with no lookup. A plain message (text and `{name}` only, most
 * are) is joined from its pieces; any other goes through intl-messageformat.
 */
export function formatterOf(message: FormattableMessage): MessageFormatter {
  let formatter = formatters.get(message)
  if (formatter === undefined) {
    const plan = planOf(message)
    formatter =
      plan === null
        ? (params) => cleaned(formatted(message, params))
        : (params) => cleaned(joined(plan, params) ?? formatted(message, params))
    formatters.set(message, formatter)
  }
  return formatter
}

/** The text of a message with no placeholder, plural or tag (most replies are such), else undefined. */
export function fixedTextOf(message: FormattableMessage): string | undefined {
  const plan = planOf(message)
  return plan?.every((part) => typeof part === 'string') === true ? plan.join('') : undefined
}

/** Drops the marks values that end a sentence were given, and a message's period right after one. */
function cleaned(text: string): string {
  return text.includes(ENDED) ? text.replaceAll(`${ENDED}.`, '').replaceAll(ENDED, '') : text
}

/** Through intl-messageformat: plurals, selects, numbers, dates, tags, and every error it raises. */
function formatted(message: FormattableMessage, params?: Readonly<Record<string, unknown>>): string {
  const marked =
    params === undefined
      ? undefined
      : Object.fromEntries(Object.entries(params).map(([name, value]) => [name, mark(value)]))
  const out = message.format(marked as Record<string, never> | undefined)
  return Array.isArray(out) ? out.map(String).join('') : String(out)
}

function mark(value: unknown): unknown {
  return typeof value === 'string' ? marked(value) : value
}

function marked(value: string): string {
  return endsASentence(value) ? `${value}${ENDED}` : value
}

/** Whether the text ends with . ! ? or …: its last character read, rather than a pattern run per value. */
function endsASentence(value: string): boolean {
  const last = value.charCodeAt(value.length - 1)
  return last === 46 || last === 33 || last === 63 || last === 0x2026
}

/**
 * A message made only of text and plain `{name}` placeholders (most are), as its pieces: joined
 * here, with intl-messageformat's own rules for such a placeholder, instead of through its parts.
 */
type Plan = readonly (string | Placeholder)[]

interface Placeholder {
  readonly name: string
  /**
   * Whether anything comes after it. A value that ends the message needs no mark: no period can
   * follow it, and marks (with any a value brought itself) are all dropped at the end either way.
   * Left unmarked, its characters are not read here: a value sliced from a message (a command's
   * rest) is then copied once, into the reply, rather than out into a string of its own first.
   */
  readonly followed: boolean
}

/** The ICU parser's element types for plain text and for a plain placeholder. */
const LITERAL = 0
const ARGUMENT = 1

/** The message as a plan, or null when it has more than text and plain placeholders. */
function planOf(message: FormattableMessage): Plan | null {
  const elements = message.getAst?.()
  return elements?.every((element) => element.type === LITERAL || element.type === ARGUMENT) === true
    ? elements.map((element) =>
        element.type === LITERAL
          ? String(element.value)
          : { name: String(element.value), followed: element !== elements.at(-1) },
      )
    : null
}

/**
 * The plan joined with `params`, or undefined for a value it does not know how to print (an
 * object, `true`) or a missing one: intl-messageformat then formats it, or throws, as it always did.
 */
function joined(plan: Plan, params?: Readonly<Record<string, unknown>>): string | undefined {
  let text = ''
  for (const part of plan) {
    if (typeof part === 'string') {
      text += part
      continue
    }
    if (params === undefined || !Object.hasOwn(params, part.name)) return undefined
    const value = params[part.name]
    if (typeof value === 'string') text += part.followed ? marked(value) : value
    else if (typeof value === 'number' || typeof value === 'bigint') text += String(value)
    // intl-messageformat prints nothing for these.
    else if (value !== undefined && value !== null && value !== false) return undefined
  }
  return text
}
