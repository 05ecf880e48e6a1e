// The sporangia spores are installed from: the rules every surface applies when it lists, adds,
// changes or removes one. Business refusals are Outcomes; the mycelium group turns them into
// rejections for spores.
import {
  type NewSource,
  type Outcome,
  type OutcomeOf,
  publisherKeySchema,
  type SourceInfo,
  type SourcePatch,
} from '@mycelo/septum'
import type { MyceloConfig } from '../boot/config.ts'
import { DONE, type Refusal, refused } from '../mycelium/outcome.ts'
import type { Store } from '../store/index.ts'
import {
  insertSource,
  patchSource,
  removeSource,
  type SourceRow,
  sourceRow,
  sourceRows,
} from './source-rows.ts'
import { checkUrl } from './url-policy.ts'

/** What a token reads back as, on every surface; writing it back keeps the stored token. */
export const TOKEN_MASK = '••••'

const LABEL_MAX = 100
const TOKEN_MAX = 4096
const GITHUB_REPO_PATH = /^\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\/?$/

export interface SourcesDeps {
  readonly store: Store
  readonly config: Pick<MyceloConfig, 'sporangia'>
}

export interface SourceOutcomes {
  listSources(): Promise<readonly SourceInfo[]>
  addSource(source: NewSource): Promise<OutcomeOf<SourceInfo>>
  updateSource(id: string, patch: SourcePatch): Promise<OutcomeOf<SourceInfo>>
  deleteSource(id: string): Promise<Outcome>
}

export function sourceOutcomes(deps: SourcesDeps): SourceOutcomes {
  const { store } = deps
  return {
    async listSources() {
      return sourceRows(store).map(sourceInfoOf)
    },
    async addSource(source) {
      const refusal =
        labelRefusal(source.label) ??
        urlRefusal(deps, source.url) ??
        tokenRefusal(source.token) ??
        keyRefusal(source.publisherKey) ??
        enabledRefusal(source.enabled)
      if (refusal) return refusal
      // The mask is not a token: a new source has nothing stored to keep.
      const token = source.token === undefined || source.token === TOKEN_MASK ? null : source.token || null
      const id = freeId(store, source.label)
      // Trust is never taken from what the caller says: only the seeded list is official.
      insertSource(store, {
        id,
        label: source.label.trim(),
        url: source.url,
        token,
        publisherKey: source.publisherKey ?? null,
        trust: 'third-party',
        enabled: source.enabled ?? true,
      })
      return { ok: true, value: sourceInfoOf(sourceRow(store, id)!) }
    },
    async updateSource(id, patch) {
      const row = sourceRow(store, id)
      if (row === undefined) return refused('source_unknown', { source: id })
      const refusal =
        (patch.label === undefined ? undefined : labelRefusal(patch.label)) ??
        (patch.url === undefined ? undefined : urlRefusal(deps, patch.url)) ??
        tokenRefusal(patch.token) ??
        keyRefusal(patch.publisherKey) ??
        enabledRefusal(patch.enabled) ??
        officialUrlRefusal(row, patch)
      if (refusal) return refusal
      const set: Partial<SourceRow> = {}
      if (patch.label !== undefined) set.label = patch.label.trim()
      if (patch.url !== undefined) set.url = patch.url
      if (patch.enabled !== undefined) set.enabled = patch.enabled
      if (patch.publisherKey !== undefined) set.publisherKey = patch.publisherKey
      // The mask keeps the stored token; an empty string removes it.
      if (patch.token !== undefined && patch.token !== TOKEN_MASK) set.token = patch.token || null
      const updated = Object.keys(set).length === 0 ? row : patchSource(store, id, set)
      return { ok: true, value: sourceInfoOf(updated ?? row) }
    },
    async deleteSource(id) {
      const row = sourceRow(store, id)
      if (row === undefined) return refused('source_unknown', { source: id })
      if (row.trust === 'official') return refused('source_official_delete', { source: id })
      removeSource(store, id)
      return DONE
    },
  }
}

/** A source as every surface shows it: the token as the mask, the pinned key in full. */
export function sourceInfoOf(row: SourceRow): SourceInfo {
  return {
    id: row.id,
    label: row.label,
    url: row.url,
    trust: row.trust,
    enabled: row.enabled,
    ...(row.token ? { token: TOKEN_MASK } : {}),
    ...(row.publisherKey ? { publisherKey: row.publisherKey } : {}),
  }
}

function labelRefusal(label: unknown): Refusal | undefined {
  if (typeof label !== 'string' || label.trim() === '' || label.length > LABEL_MAX)
    return refused('source_label_invalid', { max: LABEL_MAX })
  return undefined
}

/** A token is sent in a header: printable ASCII, no spaces, nothing that could split it. */
function tokenRefusal(token: unknown): Refusal | undefined {
  if (token === undefined || token === TOKEN_MASK) return undefined
  if (typeof token !== 'string' || token.length > TOKEN_MAX || !/^[!-~]*$/.test(token))
    return refused('source_token_invalid')
  return undefined
}

/** A spore's call is JavaScript: `enabled: 'no'` must not read as on. */
function enabledRefusal(enabled: unknown): Refusal | undefined {
  return enabled === undefined || typeof enabled === 'boolean' ? undefined : refused('source_enabled_invalid')
}

function keyRefusal(key: unknown): Refusal | undefined {
  if (key === undefined) return undefined
  return publisherKeySchema.safeParse(key).success ? undefined : refused('source_key_invalid')
}

/** The refusal for a URL the core would not fetch from, or a GitHub URL that names no repository. */
export function urlRefusal(deps: Pick<SourcesDeps, 'config'>, url: unknown): Refusal | undefined {
  if (typeof url !== 'string') return refused('source_url_invalid', { url: String(url) })
  const verdict = checkUrl(url, deps.config.sporangia)
  if (!verdict.ok) {
    if (verdict.reason === 'local') return refused('source_local', { url })
    if (verdict.reason === 'scheme') return refused('source_url_scheme', { url })
    if (verdict.reason === 'credentials') return refused('source_url_credentials', { url })
    return refused('source_url_invalid', { url })
  }
  if (verdict.url.hostname === 'github.com' && !GITHUB_REPO_PATH.test(verdict.url.pathname))
    return refused('source_url_github', { url })
  return undefined
}

/** An official source stays the one the project ships: pointing it elsewhere would keep its trust. */
function officialUrlRefusal(row: SourceRow, patch: SourcePatch): Refusal | undefined {
  if (row.trust !== 'official' || patch.url === undefined || patch.url === row.url) return undefined
  return refused('source_official_url', { source: row.id })
}

/** A readable id from the label (`My Mirror` → `my-mirror`), numbered when already taken. */
function freeId(store: Store, label: string): string {
  const base =
    label
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'source'
  let id = base
  for (let n = 2; sourceRow(store, id) !== undefined; n++) id = `${base}-${n}`
  return id
}
