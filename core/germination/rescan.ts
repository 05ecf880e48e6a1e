import type { Logger } from '@mycelo/septum'
import { discoverSpores } from './discovery.ts'
import { recordDiscovered } from './enablement.ts'
import { foldersWithInstalls, RESERVED_NAMES } from './germinate.ts'
import { type ManifestReading, readDiscovered } from './manifest-reading.ts'
import type { Germination, PluginStorePort } from './ports.ts'

export interface RescanOptions {
  readonly germination: Germination
  readonly store: PluginStorePort
  readonly logger: Logger
  readonly folders: readonly string[]
  /** Where installed spores go: a folder that may not exist before the first install. */
  readonly installs?: string | undefined
}

/** What a rescan found: folders new since start-up, and those it refused, each with why. */
export interface RescanFinding {
  readonly found: readonly ManifestReading[]
  readonly refused: readonly { readonly name: string; readonly dir: string; readonly reason: string }[]
}

/**
 * Looks through the spores folders again for folders the running bot does not know. Each new one
 * is recorded (new and disabled, with its reason, as at a start) and answered to be germinated. A
 * name already running elsewhere, or found twice, refuses the newcomer alone, never the bot.
 */
export async function rescanFolders(options: RescanOptions): Promise<RescanFinding> {
  const { germination, store, logger } = options
  const awaited = options.installs === undefined ? [] : [options.installs]
  const folders = foldersWithInstalls(options.folders, options.installs)
  const discovery = await discoverSpores(folders, logger, awaited)
  const known = new Set(germination.spores.map((spore) => spore.dir))
  const readings = await readDiscovered(discovery)
  const fresh = readings.filter((reading) => !known.has(reading.dir))
  const found: ManifestReading[] = []
  const refused: { name: string; dir: string; reason: string }[] = []
  for (const reading of fresh) {
    const { name, dir } = reading
    const elsewhere = [
      ...new Set([
        ...(germination.byName.has(name) ? [germination.byName.get(name)!.dir] : []),
        ...readings.filter((other) => other.name === name && other.dir !== dir).map((other) => other.dir),
      ]),
    ]
    if (RESERVED_NAMES.has(name)) {
      refused.push({ name, dir, reason: `the name "${name}" is reserved for the core; rename the spore` })
    } else if (elsewhere.length > 0) {
      const reason = `spore "${name}" is also found in ${elsewhere.join(' and ')}; keep only one spore of each name`
      refused.push({ name, dir, reason })
    } else found.push(reading)
  }
  for (const refusal of refused) logger.warn('a new spore folder was refused', refusal)
  recordDiscovered(store, found)
  return { found, refused }
}
