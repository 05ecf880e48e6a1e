import { CatalogError, compileCatalog, flattenCatalog } from '../catalog/index.ts'
import { type CommandDeclaration, type EnzymeManifest, isCodeCommand } from '../contract/index.ts'
import { errorText, type Failures } from './failures.ts'

type Compiled = ReturnType<typeof compileCatalog>['messages']

/** The catalogues an author passed, compiled the way germination compiles them. */
export interface Catalogues {
  readonly locales: readonly string[]
  /** `en` when given, the first locale otherwise: where a missing key cascades to. */
  readonly defaultLocale: string
  /** Every key's source text, per locale, whether or not it compiled. */
  readonly sources: ReadonlyMap<string, ReadonlyMap<string, string>>
  /** The compiled messages of each locale that compiled. */
  readonly compiled: ReadonlyMap<string, Compiled>
}

const EMPTY: ReadonlyMap<string, never> = new Map<string, never>()

/** Compiles every locale; a key that fails names its locale and key, as it would make the spore dormant. */
export function compileCatalogues(
  catalogs: Readonly<Record<string, unknown>>,
  failures: Failures,
): Catalogues {
  const locales = Object.keys(catalogs)
  const sources = new Map<string, ReadonlyMap<string, string>>()
  const compiled = new Map<string, Compiled>()
  for (const locale of locales) {
    const parsed = catalogs[locale]
    try {
      sources.set(locale, flattenCatalog(locale, parsed))
      compiled.set(locale, compileCatalog(locale, parsed).messages)
    } catch (error) {
      if (!sources.has(locale)) sources.set(locale, EMPTY)
      failures.add(catalogueFailure(locale, error))
    }
  }
  const defaultLocale = locales.includes('en') ? 'en' : (locales[0] ?? 'en')
  return { locales, defaultLocale, sources, compiled }
}

function catalogueFailure(locale: string, error: unknown): string {
  if (!(error instanceof CatalogError))
    return `catalogue "${locale}": cannot be compiled: ${errorText(error)}`
  if (error.key === '') return `catalogue "${locale}": ${error.reason}`
  return (
    `catalogue "${locale}": key "${error.key}" does not compile: ${error.reason}; ` +
    'germination would leave the whole spore dormant'
  )
}

/** A description that resolves in no catalogue is a literal, rendered as itself in every language. */
export function checkDescriptions(
  manifest: EnzymeManifest,
  catalogues: Catalogues,
  failures: Failures,
): void {
  const resolves = (key: string) =>
    catalogues.locales.some((locale) => catalogues.sources.get(locale)?.has(key))
  const searched = catalogues.locales.length === 0 ? 'none given' : catalogues.locales.join(', ')
  for (const command of manifest.commands) {
    if (!resolves(command.description)) {
      failures.add(
        `command "${command.name}": description "${command.description}" resolves in no catalogue ` +
          `(${searched}), so it would render literally`,
      )
    }
    for (const arg of argsOf(command)) {
      if (!resolves(arg.description)) {
        failures.add(
          `command "${command.name}", arg "${arg.name}": description "${arg.description}" resolves in no ` +
            `catalogue (${searched}), so it would render literally`,
        )
      }
    }
  }
}

function argsOf(command: CommandDeclaration) {
  return isCodeCommand(command) ? (command.args ?? []) : []
}

/**
 * Renders a respond: command in every locale that has its key: it has nothing to interpolate, so
 * a message that needs a value fails where the bot would log an error and answer with the key.
 */
export function checkRespond(
  command: CommandDeclaration & { respond: string },
  catalogues: Catalogues,
  failures: Failures,
): void {
  for (const [locale, messages] of catalogues.compiled) {
    const message = messages.get(command.respond)
    if (message === undefined) continue
    try {
      message.format()
    } catch (error) {
      failures.add(
        `command "${command.name}": respond "${command.respond}" cannot render in "${locale}": ` +
          `${errorText(error)}; a respond: message has no values to interpolate`,
      )
    }
  }
}
