import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve } from 'node:path'
import { parseDocument } from 'yaml'
import { describeIssue } from './config-issues.ts'
import { type FileConfig, fileSchema, type Timeouts } from './config-schema.ts'

/** The file's own name, used when MYCELO_CONFIG does not say otherwise. */
export const DEFAULT_CONFIG_FILE = 'mycelo.yaml'

/** A config file that cannot be read, parsed or validated: start-up stops with this message. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError'
}

/** The validated configuration, with every path absolute. */
export interface MyceloConfig
  extends Readonly<
    Omit<FileConfig, 'spores' | 'owner' | 'http' | 'timeouts' | 'sporangia' | 'log' | 'storage'>
  > {
  /** The file the values were read from, or undefined when none exists and defaults apply. */
  readonly file: string | undefined
  readonly spores: readonly string[]
  readonly owner: Readonly<FileConfig['owner']>
  readonly http: Readonly<FileConfig['http']>
  readonly timeouts: Readonly<Timeouts>
  /** With `installs` and `staging` absolute. */
  readonly sporangia: Readonly<FileConfig['sporangia']>
  /** With `file` absolute. */
  readonly log: Readonly<FileConfig['log']>
  readonly storage: Readonly<FileConfig['storage']>
}

export interface LoadConfigOptions {
  /** Overrides MYCELO_CONFIG; relative to the process's working folder. */
  readonly path?: string
  /** Where MYCELO_CONFIG is read from; the process's environment unless given. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /**
   * The folder a relative path, the default `mycelo.yaml` and the defaults' paths are read against:
   * the process's working folder unless given (a test gives its own, never the checkout's).
   */
  readonly folder?: string
}

/** Reads, validates and resolves mycelo.yaml. Throws ConfigFileError naming what is wrong. */
export function loadConfig(options: LoadConfigOptions = {}): MyceloConfig {
  const env = options.env ?? process.env
  const named = options.path ?? env.MYCELO_CONFIG
  const source = options.path === undefined ? ' (named by MYCELO_CONFIG)' : ''
  const folder = options.folder ?? process.cwd()
  const file = resolve(folder, named ?? DEFAULT_CONFIG_FILE)
  const label = displayName(file)
  if (!existsSync(file)) {
    // A path someone typed that points nowhere is a mistake, not a request for defaults.
    if (named !== undefined) throw new ConfigFileError(`${label}: no such file${source}`)
    return resolvePaths(fileSchema.parse({}), folder, undefined)
  }
  const raw = readYaml(file, label)
  const parsed = fileSchema.safeParse(raw ?? {}, { reportInput: true })
  if (!parsed.success) {
    const lines = parsed.error.issues.flatMap((issue) =>
      describeIssue(issue).map((line) => `${label}: ${line}`),
    )
    throw new ConfigFileError(lines.join('\n'))
  }
  return resolvePaths(parsed.data, dirname(file), file)
}

function readYaml(file: string, label: string): unknown {
  let source: string
  try {
    source = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigFileError(`${label}: cannot be read (${(error as Error).message})`)
  }
  const document = parseDocument(source, { prettyErrors: true })
  const [first] = document.errors
  if (first) {
    const where = first.linePos?.[0]
    const what = first.message.split(' at line ')[0]
    const at = where ? `line ${where.line}, column ${where.col}: ` : ''
    throw new ConfigFileError(`${label}: ${at}${what}`)
  }
  const value: unknown = document.toJS()
  if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value))) {
    throw new ConfigFileError(`${label}: expected a mapping of settings at the top level`)
  }
  return value
}

function resolvePaths(config: FileConfig, base: string, file: string | undefined): MyceloConfig {
  const at = (path: string) => (path === ':memory:' ? path : resolve(base, path))
  const sporangia = {
    ...config.sporangia,
    installs: at(config.sporangia.installs),
    staging: at(config.sporangia.staging),
  }
  const log = config.log.file === undefined ? config.log : { ...config.log, file: at(config.log.file) }
  return { ...config, file, spores: config.spores.map(at), database: at(config.database), sporangia, log }
}

/** Names a file the way an operator would type it: relative to where they stand when inside it. */
function displayName(file: string): string {
  const fromCwd = relative(process.cwd(), file)
  return fromCwd.startsWith('..') || isAbsolute(fromCwd) ? file : fromCwd
}
