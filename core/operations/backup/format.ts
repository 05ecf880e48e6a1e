// What a backup archive holds and how its manifest reads: one place, so the writer and the
// reader cannot drift apart.
import { z } from 'zod'

/** The manifest's name, at the archive's root. */
export const MANIFEST_FILE = 'manifest.json'

/** Where each part of the bot sits inside the archive. */
export const PARTS = {
  database: 'database/mycelo.db',
  config: 'mycelo.yaml',
  installs: 'spores',
  previous: 'previous',
} as const

const sha256 = z.string().regex(/^[0-9a-f]{64}$/)

export const manifestSchema = z.strictObject({
  format: z.literal('mycelo-backup'),
  formatVersion: z.literal(1),
  mycelo: z.string().min(1),
  septum: z.string().min(1),
  createdAt: z.iso.datetime(),
  /** Whether the bot had a mycelo.yaml (without one, every default applies). */
  config: z.boolean(),
  /** Every file but the manifest, by its path in the archive. */
  files: z.record(z.string(), z.strictObject({ sha256, bytes: z.int().min(0) })),
})

export type BackupManifest = z.output<typeof manifestSchema>
