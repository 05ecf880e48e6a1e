import { z } from 'zod'
import { PLUGIN_KINDS } from '../contract/vocabulary.ts'

/**
 * The format of a sporangium's `index.json`: what an index server serves and what a core reads.
 * The version is the document's own `format` field; a core refuses a format it does not know.
 */
export const INDEX_FORMAT = 1

const SPORE_NAME = /^[a-z0-9][a-z0-9-]*$/
/** A strain is a semantic version: `1.2.0`, `2.0.0-beta.1`. */
const STRAIN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/
const SHA256_HEX = /^[0-9a-f]{64}$/
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** An Ed25519 public key, written `ed25519:<base64 of the 32 raw key bytes>`. */
export const publisherKeySchema = z
  .string()
  .regex(/^ed25519:[A-Za-z0-9+/]{43}=$/, 'expected ed25519:<base64 of 32 bytes>')

/** One released version of a spore, and how to prove its archive is the one published. */
export const strainEntrySchema = z.strictObject({
  /** Where the archive is, relative to the index's own URL (a `.tgz`). */
  archive: z
    .string()
    .min(1)
    .max(512)
    .refine((url) => !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('/'), 'must be a relative URL'),
  /** The archive's exact size in bytes. */
  size: z.int().min(1),
  /** The archive's SHA-256, lowercase hex. */
  sha256: z.string().regex(SHA256_HEX, 'expected 64 lowercase hex digits'),
  /** The septum range the strain's manifest declares. */
  septum: z.string().min(1).max(100),
  /** When it was published, as an ISO 8601 date-time. */
  published: z.iso.datetime({ offset: true }),
  /** Base64 Ed25519 signature of `strainStatement(spore, strain, sha256)` by the publisher key. */
  signature: z.string().regex(BASE64).max(128).optional(),
})

export const sporeEntrySchema = z.strictObject({
  kind: z.enum(PLUGIN_KINDS),
  description: z.string().max(500).optional(),
  /** Keyed by strain (a semantic version). */
  strains: z.record(z.string().regex(STRAIN, 'expected a semantic version such as 1.2.0'), strainEntrySchema),
})

export const sporangiumIndexSchema = z.strictObject({
  format: z.literal(INDEX_FORMAT),
  /** The sporangium's own name, as its publisher calls it. */
  name: z.string().min(1).max(100),
  /** The key its strains are signed with, when they are; a core pins it (see the README). */
  publisher: z.strictObject({ key: publisherKeySchema }).optional(),
  /** Keyed by spore name. */
  spores: z.record(
    z.string().regex(SPORE_NAME, 'expected lowercase letters, digits and dashes'),
    sporeEntrySchema,
  ),
})

export type StrainEntry = z.output<typeof strainEntrySchema>
export type SporeEntry = z.output<typeof sporeEntrySchema>
export type SporangiumIndex = z.output<typeof sporangiumIndexSchema>

/**
 * What a publisher signs for one strain: the spore's name, the strain and the archive's digest
 * together, so a signature cannot be replayed for another spore, another strain or other bytes.
 */
export function strainStatement(spore: string, strain: string, sha256: string): Uint8Array {
  return new TextEncoder().encode(`mycelo-strain:1\n${spore}\n${strain}\n${sha256}\n`)
}
