import { fixedTextOf, formatterOf, type Logger, type MessageFormatter } from '@mycelo/septum'
import type { IntlMessageFormat } from 'intl-messageformat'

/** Where a key was asked for: what a format failure's log line names. */
export interface KeyAsked {
  readonly domain: string
  readonly key: string
  readonly locale: string
}

/**
 * One key as found in one locale, made once (see Translator): its text when that never changes
 * (a message with no placeholder, or the key itself when no catalogue has it), else the message's
 * own formatter, so a reply is formatted with no lookup between the key and its text.
 */
export class Rendering {
  readonly #asked: KeyAsked
  readonly #text: string | undefined
  readonly #format: MessageFormatter | undefined

  constructor(asked: KeyAsked, message: IntlMessageFormat | undefined) {
    this.#asked = asked
    this.#text = message === undefined ? asked.key : fixedTextOf(message)
    this.#format = message === undefined || this.#text !== undefined ? undefined : formatterOf(message)
  }

  /** `logger` names who asked, for the error a format failure logs. */
  render(params: Readonly<Record<string, unknown>> | undefined, logger: Logger): string {
    if (this.#format === undefined) return this.#text!
    try {
      return this.#format(params)
    } catch (error) {
      // A placeholder nobody supplied: show the key rather than crash the reply.
      logger.error('translation failed to format; rendering its key instead', {
        ...this.#asked,
        error: error instanceof Error ? error.message : String(error),
      })
      return this.#asked.key
    }
  }
}
