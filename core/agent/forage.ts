import type { HostAnswer } from './guest.ts'

/** One operation as discovery shows it, under its complete logical path. */
export interface CatalogEntry {
  readonly path: string
  readonly module: string
  readonly operation: string
  readonly description: string
  readonly access: 'read' | 'write'
  readonly confirm: boolean
  /** How to call it, as the guest does: `env.<path>(input)`. */
  readonly call: string
  readonly input: Record<string, unknown>
  readonly output: Record<string, unknown>
}

/** Bounds on what discovery hands the guest, so a large graph cannot flood the model. */
export const CATALOG_LIMITS = Object.freeze({
  entries: 1_000,
  searchResults: 20,
  listResults: 200,
  queryChars: 200,
})

let versions = 0

/**
 * The bounded discovery catalogue of one captured graph, prepared once per graph (catalog.ts). Its entries are
 * plain JSON, so the sandbox's worker serves search and describe itself, synchronously; `version`
 * tells a worker whether the catalogue it holds is this one.
 */
export class Forage {
  readonly entries: readonly CatalogEntry[]
  readonly version: number
  readonly #byPath: ReadonlyMap<string, CatalogEntry>

  constructor(entries: readonly CatalogEntry[], version = ++versions) {
    this.entries = entries
    this.version = version
    this.#byPath = new Map(this.entries.map((entry) => [entry.path, entry]))
  }

  /** The guest's discovery call, by its kind, with the arguments it passed. */
  answer(kind: string, argument: unknown): HostAnswer {
    const { query, limit, path, prefix } = (argument ?? {}) as Record<string, unknown>
    if (kind === 'search') return this.search(query, limit)
    if (kind === 'list') return this.list(prefix)
    return this.describe(path)
  }

  /** Every entry under a path prefix (all without one), in path order, without schemas. */
  list(prefix: unknown): HostAnswer {
    const under = typeof prefix === 'string' ? prefix.replace(/^env\./, '') : ''
    const value = this.entries
      .filter((entry) => under === '' || entry.path === under || entry.path.startsWith(`${under}.`))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .slice(0, CATALOG_LIMITS.listResults)
      .map(summaryOf)
    return { ok: true, value }
  }

  /** Entries whose path or description holds every word of the query, best first, without schemas. */
  search(query: unknown, limit?: unknown): HostAnswer {
    const text = typeof query === 'string' ? query.slice(0, CATALOG_LIMITS.queryChars).toLowerCase() : ''
    const words = text.split(/\s+/).filter((word) => word.length > 0)
    const max = typeof limit === 'number' && limit > 0 ? Math.min(limit, CATALOG_LIMITS.searchResults) : 10
    const scored = this.entries
      .map((entry) => ({ entry, score: score(entry, words) }))
      .filter((hit) => hit.score > 0 || words.length === 0)
      .sort((a, b) => b.score - a.score || a.entry.path.localeCompare(b.entry.path))
      .slice(0, max)
    return { ok: true, value: scored.map(({ entry }) => summaryOf(entry)) }
  }

  describe(path: unknown): HostAnswer {
    const entry = typeof path === 'string' ? this.#byPath.get(path.replace(/^env\./, '')) : undefined
    if (entry === undefined)
      return { ok: false, name: 'NotFound', message: `no operation at "${String(path)}"` }
    return { ok: true, value: entry }
  }
}

/** An entry as search and list give it: how to call it and what it does, its schemas left to describe. */
function summaryOf(entry: CatalogEntry) {
  const { path, call, description, access, confirm } = entry
  return { path, call, description, access, confirm }
}

function score(entry: CatalogEntry, words: readonly string[]): number {
  const path = entry.path.toLowerCase()
  const description = entry.description.toLowerCase()
  let total = 0
  for (const word of words) {
    if (path.includes(word)) total += 2
    else if (description.includes(word)) total += 1
    else return 0
  }
  return total
}
