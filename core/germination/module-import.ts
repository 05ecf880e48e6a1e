import type { ConfigSchema, Manifest, StorageMigration } from '@mycelo/septum'
// The contract's pure parts, by file: a host imports this module, and the package's index loads zod.
import { isCodeCommand } from '../../septum/src/contract/manifest.ts'
import { migrationsProblem } from '../../septum/src/storage/migrations.ts'
import type { Host } from '../hosts/host.ts'
import { raceDeadline } from '../supervision/deadline.ts'
import { faultText } from './fault.ts'
import { shareContractModules } from './shared-modules.ts'

/** Fresh imports so far, in this process: each reload's query is one no module was loaded under. */
let freshImports = 0

/** Where a spore's module may live, in the order they are tried. */
export const ENTRY_CANDIDATES = ['src/index.ts', 'index.ts', 'dist/index.js', 'index.js'] as const

/** The default export as read duck-typed: only `create` and `configSchema` matter. */
export interface SporeExport {
  create(): unknown
  readonly configSchema?: ConfigSchema
  /** As exported, unchecked: the agent runtime parses it when it offers the spore's operations. */
  readonly operations?: unknown
  /** septum 1.1: checked (positive, strictly increasing versions, each with up()) and copied. */
  readonly migrations?: readonly StorageMigration[]
}

export interface LoadedModule {
  /** Relative to the spore's folder. */
  readonly entry: string
  readonly exported: SporeExport
  /** Set when the spore runs in a host of its own: whoever lets the module go ends it. */
  readonly host?: Host
}

export interface LoadOptions {
  /** How long importing may take. */
  readonly deadlineMs?: number
  /** Set for a reload: the module and the spore's own files it imports are evaluated anew, not taken from Bun's cache. */
  readonly fresh?: number
  /**
   * The spore's name, when it is loaded to run: the isolation policy then decides whether it is
   * imported here or in a host of its own. Without it (a host itself, a probe) it is imported here.
   */
  readonly spore?: string
  /**
   * Loaded only to be read (a disabled spore's settings schema), never to run: a host it gets is
   * not supervised, and whoever reads it ends it (see LoadedModule.host).
   */
  readonly transient?: boolean
}

/** Why a module cannot be used: a core reason's key and params (worded by the core), or plain text. */
export type ImportRefusal =
  | { readonly key: string; readonly params: Readonly<Record<string, string>> }
  | { readonly text: string }

export type ModuleImport =
  | { readonly ok: true; readonly module: LoadedModule | undefined }
  | { readonly ok: false; readonly refusal: ImportRefusal }

/**
 * Imports a spore's module here and reads its default export. Only an enzyme whose commands all
 * answer with respond: may have none; named exports are never read, a named `configSchema` included.
 * Light on purpose: a host imports it, and whatever it imports every host pays for.
 */
export async function importModule(
  dir: string,
  manifest: Manifest,
  options: ImportOptions,
): Promise<ModuleImport> {
  const found = findEntry(dir)
  if (found === undefined) return withoutEntry(manifest)
  return importEntry(dir, found, options)
}

export interface ImportOptions {
  readonly deadlineMs: number
  readonly fresh?: number | undefined
}

/**
 * Imports the module found for a spore in `dir` and reads its default export. A host is told the
 * file by the core, which has decided already what a spore without one is (see withoutEntry): the
 * manifest never crosses to it.
 */
export async function importEntry(
  dir: string,
  found: FoundEntry,
  options: ImportOptions,
): Promise<ModuleImport> {
  shareContractModules()
  const { entry, path } = found
  let namespace: { default?: unknown }
  try {
    // A module that never finishes importing (a top-level await) is abandoned, not waited on.
    // Bun caches a module by its specifier: a query never used before on the plain path (a file:
    // URL's query is not honoured) evaluates the file, and the spore's files it imports, as they are now.
    const specifier =
      options.fresh === undefined ? Bun.pathToFileURL(path).href : `${path}?v=${++freshImports}`
    const importing = import(specifier)
    namespace = await raceDeadline(importing, { step: `importing ${entry}`, ms: options.deadlineMs })
  } catch (error) {
    // Loaded when a module fails: a host whose spore loads never pays for reading positions in files.
    const { loadFaultText } = await import('./load-fault.ts')
    return {
      ok: false,
      refusal: { key: 'moduleFailed', params: { entry, fault: loadFaultText(error, dir) } },
    }
  }
  // Read once, each member inside a guard: a throwing getter or a Proxy faults this spore alone.
  let exported: SporeExport | string
  try {
    exported = snapshotExport(namespace)
  } catch (error) {
    return { ok: false, refusal: { key: 'exportThrew', params: { entry, fault: faultText(error) } } }
  }
  if (typeof exported === 'string') return { ok: false, refusal: { text: `module ${entry}${exported}` } }
  return { ok: true, module: { entry, exported } }
}

/** A spore with no module file: an enzyme whose commands all answer with respond: needs none. */
export function withoutEntry(manifest: Manifest): ModuleImport {
  if (needsNoModule(manifest)) return { ok: true, module: undefined }
  return { ok: false, refusal: { key: 'noModule', params: { candidates: ENTRY_CANDIDATES.join(', ') } } }
}

/**
 * The default export copied into a plain object the core owns, or the problem (as the tail of a
 * sentence): later reads cannot throw, and cannot answer differently from what was checked.
 */
function snapshotExport(namespace: { default?: unknown }): SporeExport | string {
  const exported = namespace.default
  if (!isObjectLike(exported)) return ' has no default export with a create() function'
  const create = exported.create
  if (typeof create !== 'function') return ' has no default export with a create() function'
  const schema = exported.configSchema
  const schemaProblem = configSchemaProblem(schema)
  if (schemaProblem !== undefined) return `: ${schemaProblem}`
  const configSchema = schema === undefined ? undefined : snapshotSchema(schema as ConfigSchema)
  const operations = exported.operations
  const migrations = exported.migrations
  const migrationProblem = migrationsProblem(migrations)
  if (migrationProblem !== undefined) return `: storage migrations refused: ${migrationProblem}`
  return {
    create: () => create.call(exported),
    ...(configSchema ? { configSchema } : {}),
    ...(operations === undefined ? {} : { operations }),
    ...(migrations === undefined ? {} : { migrations: snapshotMigrations(migrations as StorageMigration[]) }),
  }
}

function snapshotSchema(schema: ConfigSchema): ConfigSchema {
  const { safeParse, toJsonSchema, secrets } = schema
  return {
    safeParse: (input) => safeParse.call(schema, input),
    ...(typeof toJsonSchema === 'function' ? { toJsonSchema: () => toJsonSchema.call(schema) } : {}),
    ...(secrets === undefined ? {} : { secrets: Object.freeze([...secrets]) }),
  }
}

function snapshotMigrations(migrations: readonly StorageMigration[]): readonly StorageMigration[] {
  return Object.freeze(
    migrations.map(({ version, description, up }) =>
      Object.freeze({ version, ...(description === undefined ? {} : { description }), up }),
    ),
  )
}

function needsNoModule(manifest: Manifest): boolean {
  return manifest.kind === 'enzyme' && !manifest.commands.some(isCodeCommand)
}

/** A spore's module: its file relative to the spore's folder, and its path. */
export interface FoundEntry {
  readonly entry: string
  readonly path: string
}

/**
 * Where a spore's module is in `dir`, the first of ENTRY_CANDIDATES that is a file. Only the core's
 * thread looks (it tells a host the file): node:fs and node:path are loaded here, not as a host starts.
 */
export function findEntry(dir: string): FoundEntry | undefined {
  const { statSync } = require('node:fs') as typeof import('node:fs')
  const { join } = require('node:path') as typeof import('node:path')
  for (const entry of ENTRY_CANDIDATES) {
    const path = join(dir, entry)
    if (statSync(path, { throwIfNoEntry: false })?.isFile() === true) return { entry, path }
  }
  return undefined
}

function configSchemaProblem(schema: unknown): string | undefined {
  if (schema === undefined) return undefined
  if (!isObjectLike(schema) || typeof schema.safeParse !== 'function') {
    return 'the default export has a configSchema without a safeParse() function'
  }
  const secrets = schema.secrets
  if (secrets === undefined) return undefined
  if (!Array.isArray(secrets) || !secrets.every((key) => typeof key === 'string')) {
    return 'configSchema.secrets is not a list of setting keys'
  }
  return undefined
}

function isObjectLike(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' && value !== null) || typeof value === 'function'
}
