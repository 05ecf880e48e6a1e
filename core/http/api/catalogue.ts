// The page's own words: the `page.*` keys of the core's catalogues, as ICU source text, so the
// browser formats them with intl-messageformat exactly as the bot formats its replies.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { flattenCatalog } from '@mycelo/septum'
import { parse } from 'yaml'
import { CORE_TRANSLATIONS } from '../../boot/catalogues.ts'
import { localeCandidates } from '../../i18n/translator.ts'
import { localeOutcomes } from '../../mycelium/locale.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const PREFIX = 'page.'

export function catalogueRoutes({ runtime }: ApiDeps): ApiRoute[] {
  const locales = localeOutcomes(runtime)
  // Read at the first request for a locale, not at start: a bot nobody browses never holds them.
  const read = new Map<string, Readonly<Record<string, string>>>()
  const pageWords = (locale: string): Readonly<Record<string, string>> => {
    let words = read.get(locale)
    if (words === undefined) {
      words = wordsOf(locale)
      read.set(locale, words)
    }
    return words
  }
  return [
    route({
      method: 'get',
      path: '/catalogue',
      summary: "The admin page's words (page.* keys) as ICU messages; ?locale= picks the language",
      handle({ c, locale }) {
        const available = locales.availableLocales()
        const asked = c.req.query('locale') ?? locale
        // The asked locale, then its language, then the bot's default: a page always has words.
        const chosen =
          localeCandidates(asked).find((candidate) => available.includes(candidate)) ??
          runtime.config.defaultLocale
        const messages = { ...pageWords(runtime.config.defaultLocale), ...pageWords(chosen) }
        return c.json({ locale: chosen, locales: available, messages })
      },
    }),
  ]
}

function wordsOf(locale: string): Readonly<Record<string, string>> {
  let text: string
  try {
    text = readFileSync(join(CORE_TRANSLATIONS, 'core', `${locale}.yaml`), 'utf8')
  } catch {
    return {}
  }
  const words: Record<string, string> = {}
  for (const [key, message] of flattenCatalog(locale, parse(text))) {
    if (key.startsWith(PREFIX)) words[key.slice(PREFIX.length)] = message
  }
  return words
}
