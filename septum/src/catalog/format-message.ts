/** A compiled message: intl-messageformat's, or anything that formats the same way. */
export interface FormattableMessage {
  format(values?: Record<string, never>): unknown
  /** intl-messageformat's parsed message: read once, to join the plain ones without it. */
  getAst?(): readonly { readonly type: number; readonly value?: unknown }[]
}

/** Put after a value that ends a sentence itself; never part of a message or of a value. */
const ENDED = '\u2063'

/**
 * Formats a compiled message to text. A message that closes with a period after a value ("… is
 * dormant: {reason}.") would print two when the value is a sentence of its own ("… in chat."):
 * the message's period right after such a value is dropped, whatever the message and the value.
 */
export function formatMessage(
  message: FormattableMessage,
  params?: Readonly<Record<string, unknown>>,
): string {
  const plan = planOf(message)
  const text = (plan !== null ? joined(plan, params) : undefined) ?? formatted(message, params)
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
type Plan = readonly (string | { readonly name: string })[]

/** The ICU parser's element types for plain text and for a plain placeholder. */
const LITERAL = 0
const ARGUMENT = 1

const plans = new WeakMap<FormattableMessage, Plan | null>()

function planOf(message: FormattableMessage): Plan | null {
  let plan = plans.get(message)
  if (plan === undefined) {
    const elements = message.getAst?.()
    plan =
      elements?.every((element) => element.type === LITERAL || element.type === ARGUMENT) === true
        ? elements.map((element) =>
            element.type === LITERAL ? String(element.value) : { name: String(element.value) },
          )
        : null
    plans.set(message, plan)
  }
  return plan
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
    if (typeof value === 'string') text += marked(value)
    else if (typeof value === 'number' || typeof value === 'bigint') text += String(value)
    // intl-messageformat prints nothing for these.
    else if (value !== undefined && value !== null && value !== false) return undefined
  }
  return text
}
