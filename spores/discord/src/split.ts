import { splitText as splitForChannel } from '@mycelo/septum'

/** Discord refuses message content longer than this many characters. */
export const MESSAGE_LIMIT = 2_000

/** The text in Discord-sized pieces, in order (the shared channel splitter at Discord's limit). */
export function splitText(text: string, limit: number = MESSAGE_LIMIT): string[] {
  return splitForChannel(text, limit)
}
