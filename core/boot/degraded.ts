import type { Logger } from '@mycelo/septum'
import { discoverSpores } from '../germination/discovery.ts'
import { blankDraft, type Draft, foldersWithInstalls } from '../germination/germinate.ts'
import type { Germination } from '../germination/index.ts'
import { readDiscovered } from '../germination/manifest-reading.ts'
import type { PluginStore } from '../store/index.ts'

export interface DegradedOptions {
  readonly folders: readonly string[]
  readonly installs: string | undefined
  readonly plugins: PluginStore
  readonly logger: Logger
  /** Why germination was refused: every spore that would have run says so. */
  readonly refusal: string
}

/**
 * What the page shows while germination is refused: every spore found, as its manifest and its
 * install row read, none of them started. A disabled one reads disabled; every other one is
 * dormant for the refusal, so the operator sees what to fix, fixes it and restarts the bot.
 */
export async function degradedGermination(options: DegradedOptions): Promise<Germination> {
  const { logger, plugins } = options
  const reason = `germination was refused: ${options.refusal}; fix it, then restart the bot`
  let drafts: Draft[] = []
  try {
    const discovery = await discoverSpores(foldersWithInstalls(options.folders, options.installs), logger)
    const readings = await readDiscovered(discovery)
    const seen = new Set<string>()
    drafts = readings.flatMap((reading) => {
      // Two folders under one name is the refusal itself: the page lists the name once.
      if (seen.has(reading.name)) return []
      seen.add(reading.name)
      const row = plugins.installOf(reading.name)
      const disabled = row !== undefined && !row.enabled
      return [
        {
          ...blankDraft(reading.name, reading.dir),
          kind: reading.kind,
          manifest: reading.manifest,
          enforcing: reading.enforcing,
          state: disabled ? 'disabled' : 'dormant',
          reason: disabled ? (row.reason ?? undefined) : (reading.refusal ?? reason),
        } satisfies Draft,
      ]
    })
  } catch (error) {
    // A spores folder that cannot be read is the refusal: nothing else can be listed.
    logger.warn('no spore can be listed while germination is refused', { error: String(error) })
  }
  drafts.sort((a, b) => a.name.localeCompare(b.name))
  return {
    spores: drafts,
    byName: new Map(drafts.map((draft) => [draft.name, draft])),
    order: [...drafts],
    logger,
    started: [],
    warnings: [],
  }
}
