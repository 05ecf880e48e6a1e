import type { CompiledCatalog, ConfigSchema, Manifest } from '@mycelo/septum'
import { hostKeeper } from '../hosts/keeper.ts'
import { loadCatalogues } from './catalogues.ts'
import { checkConfiguration } from './configuration.ts'
import { type LoadedModule, loadModule } from './module-loading.ts'
import type { PluginStorePort } from './ports.ts'

export interface Preparation {
  readonly module: LoadedModule | undefined
  readonly catalogs: ReadonlyMap<string, CompiledCatalog>
  readonly configSchema: ConfigSchema | undefined
  readonly secrets: readonly string[]
  readonly config: Record<string, unknown>
  /** The first check that failed, when one did. */
  readonly reason: string | undefined
}

const NOTHING: Preparation = {
  module: undefined,
  catalogs: new Map(),
  configSchema: undefined,
  secrets: [],
  config: {},
  reason: undefined,
}

export interface PreparationOptions {
  readonly name: string
  readonly dir: string
  readonly manifest: Manifest
  readonly store: PluginStorePort
  /** How long importing the module may take. */
  readonly deadlineMs?: number
  /** Set for a reload: the module is imported afresh (see LoadOptions.fresh). */
  readonly fresh?: number
  /** Why the first-start probe refused the module: it is then not imported here at all. */
  readonly refusedByProbe?: string
}

/** Catalogues, then the module, then the stored settings: the checks that read a spore's own files. */
export async function prepareSpore(options: PreparationOptions): Promise<Preparation> {
  const { name, dir, manifest, store } = options
  const catalogues = await loadCatalogues(dir)
  if (!catalogues.ok) return { ...NOTHING, reason: catalogues.reason }
  if (options.refusedByProbe !== undefined) {
    return { ...NOTHING, catalogs: catalogues.catalogs, reason: options.refusedByProbe }
  }
  const { deadlineMs, fresh } = options
  const loaded = await loadModule(dir, manifest, {
    spore: name,
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    ...(fresh === undefined ? {} : { fresh }),
  })
  if (!loaded.ok) return { ...NOTHING, catalogs: catalogues.catalogs, reason: loaded.reason }
  const configSchema = loaded.module?.exported.configSchema
  const prepared = {
    module: loaded.module,
    catalogs: catalogues.catalogs,
    configSchema,
    secrets: configSchema?.secrets ?? [],
  }
  const configuration = await checkConfiguration(configSchema, store.settingsOf(name), name)
  if (!configuration.ok) {
    // Dormant before it runs: its host, if it has one, has nothing left to do.
    hostKeeper.end(loaded.module?.host)
    return { ...prepared, config: {}, reason: configuration.reason }
  }
  return { ...prepared, config: configuration.config, reason: undefined }
}
