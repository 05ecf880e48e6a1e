import { type Catalogues, compileCatalogues } from '../conformance/catalogues.ts'
import { errorText, Failures, isRecord } from '../conformance/failures.ts'
import { type ManualSchedule, manualSchedule } from '../conformance/manual-schedule.ts'
import { catalogueTranslator } from '../conformance/translator.ts'
import type { ConfigSchema, Manifest, StorageMigration, Translate } from '../contract/index.ts'
import { parseManifest } from '../manifest/index.ts'
import { septumIncompatibility } from '../range/index.ts'
import { migrationsProblem } from '../storage/migrations.ts'
import { readSporeFiles, sporeFolder } from './spore-files.ts'
import type { BotStorage } from './sqlite-storage.ts'

/** One spore a test bot runs: its folder, its module and its settings. */
export interface SporeUnderTest {
  /** The spore's folder or any file inside it, e.g. the test's own `import.meta.url`. */
  readonly from: string | URL
  /** The module's default export; omit it for a spore whose commands all `respond:`. */
  readonly module?: unknown
  /** The settings an operator would store; validated by the module's configSchema. */
  readonly settings?: Readonly<Record<string, unknown>>
}

/** Germination refused the spore: the bot would leave it dormant for `reason`. */
export class DormantSporeError extends Error {
  constructor(
    readonly spore: string,
    readonly reason: string,
  ) {
    super(`${spore} would be dormant: ${reason}`)
    this.name = 'DormantSporeError'
  }
}

/** A spore past germination's checks, created but not started. */
export interface Germinated {
  readonly name: string
  readonly manifest: Manifest
  readonly config: unknown
  readonly instance: Record<string, unknown> | undefined
  readonly storage: BotStorage
  readonly schedule: ManualSchedule
  readonly catalogues: Catalogues
  /** A t() reading this spore's catalogues; `readerLocale` is the locale when a call names none. */
  translator(readerLocale: string, others: (name: string) => Germinated | undefined): Translate
}

export interface GerminateOptions {
  readonly septumVersion: string
  readonly defaultLocale: string
  readonly now: Date
  readonly log: (level: 'warn' | 'error', spore: string, message: string) => void
  /** The spore's storage: in memory, or its rows in the bot's SQLite file. */
  readonly storage: (spore: string) => BotStorage
}

/**
 * The checks germination makes, in its order: manifest, septum range, catalogues (every key
 * compiled), settings through the configSchema, the migrations its storage has not applied, then create().
 */
export async function germinate(spore: SporeUnderTest, options: GerminateOptions): Promise<Germinated> {
  const files = readSporeFiles(sporeFolder(spore.from))
  const manifest = parseManifest(files.manifest)
  const dormant = (reason: string) => new DormantSporeError(manifest.name, reason)
  const refusal = septumIncompatibility(manifest.septum, options.septumVersion)
  if (refusal !== undefined) throw dormant(refusal)
  const failures = new Failures()
  const compiled = compileCatalogues(files.catalogs, failures)
  if (failures.list.length > 0) throw dormant(failures.list.join('; '))
  const catalogues = { ...compiled, defaultLocale: options.defaultLocale }
  const module = spore.module
  if (module !== undefined && (!isRecord(module) || typeof module.create !== 'function'))
    throw dormant('the default export has no create() function')
  const config = readSettings(module, spore.settings ?? {}, dormant)
  const storage = options.storage(manifest.name)
  await migrate(module, storage, dormant)
  const schedule = manualSchedule({ now: options.now })
  const instance = module === undefined ? undefined : await create(module, dormant)
  return {
    name: manifest.name,
    manifest,
    config,
    instance,
    storage,
    schedule,
    catalogues,
    translator(readerLocale, others) {
      return catalogueTranslator({
        manifest,
        catalogues,
        readerLocale,
        // A required rhiza's domain reads that rhiza's catalogues; `common` renders its keys as such.
        fallback: (key, params, locale) => {
          if (typeof key === 'string') return key
          const other = others(key.domain)
          return other === undefined
            ? key.key
            : other.translator(locale ?? readerLocale, others)(key, params, locale)
        },
        onFormatError: (key, locale, error) =>
          options.log('error', manifest.name, `message "${key}" (${locale}) cannot be formatted: ${error}`),
      })
    },
  }
}

function readSettings(module: unknown, settings: unknown, dormant: (reason: string) => Error): unknown {
  const schema = isRecord(module) ? (module.configSchema as ConfigSchema | undefined) : undefined
  if (schema === undefined) return settings
  const parsed = schema.safeParse(settings)
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`,
  )
  throw dormant(`configuration is incomplete: ${issues.join('; ')}`)
}

async function migrate(module: unknown, storage: BotStorage, dormant: (reason: string) => Error) {
  const migrations = isRecord(module) ? module.migrations : undefined
  const problem = migrationsProblem(migrations)
  if (problem !== undefined) throw dormant(problem)
  for (const migration of (migrations ?? []) as readonly StorageMigration[]) {
    try {
      await storage.migrate(migration)
    } catch (error) {
      throw dormant(`migration ${migration.version} failed: ${errorText(error)}`)
    }
  }
}

async function create(module: Record<string, unknown>, dormant: (reason: string) => Error) {
  let created: unknown
  try {
    created = await (module.create as () => unknown).call(module)
  } catch (error) {
    throw dormant(`create() threw: ${errorText(error)}`)
  }
  if (!isRecord(created)) throw dormant(`create() returned ${typeof created} rather than an object`)
  return created
}
