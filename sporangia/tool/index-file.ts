import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { INDEX_FORMAT, type SporangiumIndex, type StrainEntry, sporangiumIndexSchema } from '@mycelo/septum'
import { done, refused, type ToolOutcome } from './outcome.ts'

export const INDEX_FILE = 'index.json'

/** The sporangium's index.json, validated against septum's schema; undefined when there is none yet. */
export async function readIndex(out: string): Promise<ToolOutcome<SporangiumIndex | undefined>> {
  let text: string
  try {
    text = await readFile(join(out, INDEX_FILE), 'utf8')
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return done(undefined)
    throw error
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    return refused('index.notJson', { problem: (error as Error).message })
  }
  const parsed = sporangiumIndexSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return refused('index.invalid', { path: issue.path.join('.') || '(root)', problem: issue.message })
  }
  return done(parsed.data)
}

export interface StrainPublication {
  readonly spore: string
  readonly kind: SporangiumIndex['spores'][string]['kind']
  readonly description: string | undefined
  readonly strain: string
  readonly entry: StrainEntry
  /** The public key the strain was signed with, when it was. */
  readonly signedBy: string | undefined
}

/**
 * The index with one strain added or replaced. A signed index takes only strains signed by its
 * publisher key; an unsigned one adopts the key of its first signed strain.
 */
export function withStrain(
  index: SporangiumIndex | undefined,
  name: string | undefined,
  publication: StrainPublication,
): ToolOutcome<SporangiumIndex> {
  if (index === undefined && name === undefined) return refused('index.needsName')
  const current: SporangiumIndex = index ?? { format: INDEX_FORMAT, name: name!, spores: {} }
  const pinned = current.publisher?.key
  if (pinned !== undefined && publication.signedBy === undefined)
    return refused('index.needsSignature', { key: pinned })
  if (pinned !== undefined && publication.signedBy !== pinned)
    return refused('index.otherKey', { key: pinned, given: publication.signedBy! })
  const previous = current.spores[publication.spore]
  if (previous !== undefined && previous.kind !== publication.kind)
    return refused('index.otherKind', { spore: publication.spore, kind: previous.kind })
  const spores = {
    ...current.spores,
    [publication.spore]: {
      kind: publication.kind,
      ...(publication.description !== undefined ? { description: publication.description } : {}),
      strains: sortedStrains({ ...previous?.strains, [publication.strain]: publication.entry }),
    },
  }
  const publisher = pinned ?? publication.signedBy
  return done({
    format: INDEX_FORMAT,
    name: name ?? current.name,
    ...(publisher !== undefined ? { publisher: { key: publisher } } : {}),
    spores: Object.fromEntries(Object.entries(spores).sort(([a], [b]) => (a < b ? -1 : 1))),
  })
}

/** Writes index.json pretty-printed, whole or not at all. */
export async function writeIndex(out: string, index: SporangiumIndex): Promise<void> {
  const target = join(out, INDEX_FILE)
  await writeFile(`${target}.partial`, `${JSON.stringify(index, null, 2)}\n`)
  await rename(`${target}.partial`, target)
}

/** Strains in semantic-version order, oldest first. */
function sortedStrains<T>(strains: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(strains).sort(([a], [b]) => Bun.semver.order(a, b)))
}
