import type { z } from 'zod'

type RawIssue = z.core.$ZodRawIssue

/** The most of a received text a message quotes; a manifest's own values are all shorter. */
export const QUOTE_LIMIT = 40

/** A value as a reader would recognise it in a message: quoted text, a list, a mapping. */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value === 'string') return `the text "${shortened(value)}"`
  return shortened(String(value))
}

/** Names the offending entry itself, for messages that say why that entry is not allowed. */
export function quote(value: unknown): string {
  return typeof value === 'string' ? `"${shortened(value)}"` : describe(value)
}

/**
 * A received text as a message may quote it: on one line, and cut with an ellipsis past
 * QUOTE_LIMIT characters. A manifest that is really some other file (a link to /etc/passwd, say)
 * parses as one long text; its refusal must not carry that file along.
 */
export function shortened(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: line breaks and controls are what goes
  const line = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ')
  const characters = [...line]
  return characters.length <= QUOTE_LIMIT ? line : `${characters.slice(0, QUOTE_LIMIT - 1).join('')}…`
}

/** A plain list for messages: `a, b, c or d`. */
export function listed(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length < 2) return items.join('')
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`
}

/**
 * The message for a field whose type is wrong, or which is absent though required: zod reports both
 * as a type problem, and only the input tells them apart.
 */
export function typeProblem(options: { missing: string; expected: string }) {
  return (issue: RawIssue): string =>
    issue.input === undefined ? options.missing : `must be ${options.expected}, not ${describe(issue.input)}`
}
