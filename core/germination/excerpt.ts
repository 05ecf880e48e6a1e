/** The longest refusal text germination passes on to the report, the log and chat. */
export const EXCERPT_LIMIT = 200

/**
 * A refusal as one short line: whitespace runs (newlines included) become one space, and a text
 * past the limit is cut with an ellipsis. Refusals quote files and values the core did not write;
 * a spore.yaml linked to /etc/passwd must not end up whole in a report or a chat reply.
 */
export function excerpt(text: string, limit = EXCERPT_LIMIT): string {
  // Control characters would reshape a terminal line or a log reader's view of it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is being removed
  const line = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim()
  const characters = [...line]
  return characters.length <= limit ? line : `${characters.slice(0, limit - 1).join('')}…`
}
