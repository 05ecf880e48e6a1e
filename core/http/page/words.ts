// The page's words: the `page.*` keys of the bot's own ICU catalogues, fetched for the session's
// language and formatted here with intl-messageformat, as the bot formats its replies.
import { IntlMessageFormat } from 'intl-messageformat'
import { createContext, useContext } from 'react'
// The file itself, not the package: the page's bundle takes this one function, not the whole contract.
import { formatMessage } from '../../../septum/src/catalog/format-message.ts'
import { api } from './api.ts'

export type Params = Record<string, string | number | Date>

export interface Words {
  readonly locale: string
  readonly locales: readonly string[]
  t(key: string, params?: Params): string
  /** Whether the catalogue words this key (a sentence for a known operation, say). */
  has(key: string): boolean
}

interface CatalogueAnswer {
  readonly locale: string
  readonly locales: readonly string[]
  readonly messages: Readonly<Record<string, string>>
}

export async function loadWords(locale?: string): Promise<Words> {
  const query = locale ? `?locale=${encodeURIComponent(locale)}` : ''
  const answer = await api<CatalogueAnswer>(`/catalogue${query}`)
  return wordsOf(answer)
}

export function wordsOf(answer: CatalogueAnswer): Words {
  const compiled = new Map<string, IntlMessageFormat>()
  return {
    locale: answer.locale,
    locales: answer.locales,
    has: (key) => answer.messages[key] !== undefined,
    t(key, params) {
      const source = answer.messages[key]
      // Every key ships in English; a gap would be a bug, shown as readable words rather than a key.
      if (source === undefined)
        return key
          .split('.')
          .at(-1)!
          .replace(/([A-Z])/g, ' $1')
          .toLowerCase()
      let message = compiled.get(key)
      if (message === undefined) {
        message = new IntlMessageFormat(source, answer.locale)
        compiled.set(key, message)
      }
      return formatMessage(message, params)
    },
  }
}

export const WordsContext = createContext<Words>(wordsOf({ locale: 'en', locales: ['en'], messages: {} }))

export function useWords(): Words {
  return useContext(WordsContext)
}
