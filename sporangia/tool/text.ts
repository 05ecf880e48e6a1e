import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type CompiledCatalog, compileCatalog, formatMessage } from '@mycelo/septum'
import { parse } from 'yaml'

/** The tool's own catalogues: one `<locale>.yaml` per language, shipped beside it. */
const TRANSLATIONS = join(import.meta.dir, '..', 'translations')

const catalogs = new Map<string, CompiledCatalog>(
  readdirSync(TRANSLATIONS)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => {
      const locale = file.slice(0, -'.yaml'.length)
      return [locale, compileCatalog(locale, parse(readFileSync(join(TRANSLATIONS, file), 'utf8')))]
    }),
)

export type ToolText = (key: string, params?: Readonly<Record<string, unknown>>) => string

/** The locale of the author's terminal (LC_ALL, LC_MESSAGES, LANG), when the tool speaks it; else English. */
export function terminalLocale(env: Readonly<Record<string, string | undefined>>): string {
  const tag = env.LC_ALL || env.LC_MESSAGES || env.LANG || ''
  const language = tag.split(/[_.@-]/)[0]?.toLowerCase() ?? ''
  return catalogs.has(language) ? language : 'en'
}

/** Renders the tool's keys in one locale, falling back to English for a key the locale lacks. */
export function toolText(locale: string): ToolText {
  return (key, params) => {
    const message = catalogs.get(locale)?.messages.get(key) ?? catalogs.get('en')?.messages.get(key)
    // A key missing from every catalogue is a bug of this tool: shown as the key, never hidden.
    if (message === undefined) return key
    return formatMessage(message, params)
  }
}
