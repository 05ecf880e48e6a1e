import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type CompiledCatalog, type Logger, lazyCatalog } from '@mycelo/septum'
import { type DomainCatalogs, Translator } from '../i18n/translator.ts'
import { shippedPath } from './shipped.ts'

export type { DomainCatalogs } from '../i18n/translator.ts'

export type Params = Readonly<Record<string, unknown>>

/** The core's own translation folders: `core` (what the core says) and `common` (shared with spores). */
export const CORE_TRANSLATIONS = shippedPath('translations')

/**
 * Top-level sections of the core's catalogues the bot never renders itself: the admin page's
 * words, which /api/v1/catalogue reads from the files for the browser. Compiling them at start
 * would cost every bot memory for a page nobody may open.
 */
const BROWSER_SECTIONS: ReadonlySet<string> = new Set(['page'])

/** The core's own domain, without what only the browser reads. */
export function loadCoreDomain(): DomainCatalogs {
  return loadDomain(join(CORE_TRANSLATIONS, 'core'), { skip: BROWSER_SECTIONS })
}

/**
 * Compiles every `<locale>.yaml` of a folder, less the top-level sections `skip` names. These ship
 * with the code, so a file that does not compile is a bug in this release and throws.
 */
export function loadDomain(
  folder: string,
  options: { readonly skip?: ReadonlySet<string> } = {},
): DomainCatalogs {
  const catalogs = new Map<string, CompiledCatalog>()
  let files: string[]
  try {
    files = readdirSync(folder).filter((file) => file.endsWith('.yaml'))
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return catalogs
    throw error
  }
  for (const file of files.sort()) {
    const locale = file.slice(0, -'.yaml'.length)
    // Bun's own parser: these files are ours (a test holds them to the yaml package's reading),
    // and the yaml package's parse of ~120 KiB left several MiB behind in an idle bot.
    const parsed: unknown = Bun.YAML.parse(readFileSync(join(folder, file), 'utf8'))
    if (options.skip && parsed !== null && typeof parsed === 'object') {
      for (const section of options.skip) delete (parsed as Record<string, unknown>)[section]
    }
    catalogs.set(locale, lazyCatalog(locale, parsed))
  }
  return catalogs
}

/** The core's own voice: renders `core` keys in one locale. */
export type CoreText = (key: string, params?: Params) => string

/** Boot's strings, before any logger exists: a core key that fails to format is a bug, shown as its key. */
export function coreText(catalogs: DomainCatalogs, locale: string): CoreText {
  const translator = new Translator({ defaultLocale: 'en', logger: SILENT })
  translator.addDomain('core', catalogs)
  return (key, params) => translator.render({ domain: 'core', key, ...(params ? { params } : {}) }, locale)
}

/** For a translator whose every key ships with the code: a failure there is a bug, shown as its key. */
export const SILENT: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => SILENT,
}

let shippedCore: DomainCatalogs | undefined
let shippedCommon: DomainCatalogs | undefined

/**
 * The core's own catalogues, compiled once per process: germination words its reasons from them
 * before any runtime exists, and the runtime is then assembled with the same ones.
 */
export function coreDomain(): DomainCatalogs {
  shippedCore ??= loadCoreDomain()
  return shippedCore
}

/**
 * The core's own catalogues and the shared `common` ones, as the runtime is assembled with them.
 * They ship with the code and are only read, so they are compiled once per process and shared.
 */
export function coreCatalogues(): { readonly core: DomainCatalogs; readonly common: DomainCatalogs } {
  shippedCommon ??= loadDomain(join(CORE_TRANSLATIONS, 'common'))
  return { core: coreDomain(), common: shippedCommon }
}
