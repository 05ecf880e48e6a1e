import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { publisherKeySchema } from '@mycelo/septum'
import { z } from 'zod'
import { shippedPath } from '../boot/shipped.ts'
import type { Store } from '../store/index.ts'
import { insertSource } from './source-rows.ts'

/** The official sources list the repository ships; seeded into the database at first start. */
export const OFFICIAL_SOURCES_FILE = shippedPath('sporangia/sources.json')

const officialSchema = z.array(
  z.strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    label: z.string().min(1).max(100),
    url: z.url(),
    publisherKey: publisherKeySchema.optional(),
    /**
     * The folder, relative to sporangia/, whose spore folders this checkout carries as strains of
     * the source: installable with no network, and offered beside what the address offers.
     */
    carried: z
      .string()
      .regex(/^[a-z0-9][a-z0-9/-]*$/)
      .optional(),
  }),
)

/** The folder of strains an official source carries in this checkout, when it carries one. */
export function carriedFolderOf(id: string, file: string = OFFICIAL_SOURCES_FILE): string | undefined {
  const official = officialSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
  const carried = official.find((source) => source.id === id)?.carried
  return carried === undefined ? undefined : resolve(dirname(file), carried)
}

/**
 * Adds each official source whose id is not there yet. One already there (perhaps disabled by an
 * operator) is left exactly as it is, so a restart never re-enables what was switched off.
 */
export function ensureOfficialSources(store: Store, file: string = OFFICIAL_SOURCES_FILE): void {
  const official = officialSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
  for (const source of official) {
    insertSource(store, {
      id: source.id,
      label: source.label,
      url: source.url,
      publisherKey: source.publisherKey ?? null,
      trust: 'official',
      enabled: true,
    })
  }
}
