/** A compiled message: intl-messageformat's, or anything that formats the same way. */
export interface FormattableMessage {
  format(values?: Record<string, never>): unknown
}

/** Put after a value that ends a sentence itself; never part of a message or of a value. */
const ENDED = '\u2063'
const ENDS_A_SENTENCE = /[.!?…]$/

/**
 * Formats a compiled message to text. A message that closes with a period after a value ("… is
 * dormant: {reason}.") would print two when the value is a sentence of its own ("… in chat."):
 * the message's period right after such a value is dropped, whatever the message and the value.
 */
export function formatMessage(
  message: FormattableMessage,
  params?: Readonly<Record<string, unknown>>,
): string {
  const marked =
    params === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(params).map(([name, value]) => [
            name,
            typeof value === 'string' && ENDS_A_SENTENCE.test(value) ? `${value}${ENDED}` : value,
          ]),
        )
  const out = message.format(marked as Record<string, never> | undefined)
  const text = Array.isArray(out) ? out.map(String).join('') : String(out)
  return text.replaceAll(`${ENDED}.`, '').replaceAll(ENDED, '')
}
