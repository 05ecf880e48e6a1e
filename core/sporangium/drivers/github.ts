// A sporangium that is a GitHub repository's releases: a strain is a release tagged
// `<spore>@<strain>` with the asset `<spore>-<strain>.tgz`, proven by the size and SHA-256 digest
// GitHub reports for the asset, and signed by an optional `<spore>-<strain>.tgz.sig` asset.
import { type OutcomeOf, PLUGIN_KINDS } from '@mycelo/septum'
import { parse } from 'yaml'
import { z } from 'zod'
import { type Refusal, refused } from '../../mycelium/outcome.ts'
import { type DownloadOutcome, download } from '../download.ts'
import type { Offering, SporangiumDriver, SporeOffer, StrainOffer } from './driver.ts'
import type { DriverContext } from './select.ts'

const PER_PAGE = 100
/** A repository with more releases than this is read only this far: newest first. */
const MAX_PAGES = 10
const SIGNATURE_MAX_BYTES = 1024
const TAG = /^([a-z0-9][a-z0-9-]*)@(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---/

const assetSchema = z.object({
  id: z.number(),
  name: z.string(),
  size: z.number(),
  digest: z.string().nullish(),
})
const releaseSchema = z.object({
  tag_name: z.string(),
  draft: z.boolean().optional(),
  body: z.string().nullish(),
  published_at: z.string().nullish(),
  assets: z.array(assetSchema),
})
/** The release notes' front matter: what an index says per spore, which GitHub has no field for. */
const frontMatterSchema = z.object({
  kind: z.enum(PLUGIN_KINDS),
  septum: z.string().min(1).max(100),
  description: z.string().max(500).optional(),
})

export function gitHubDriver(context: DriverContext): SporangiumDriver {
  const { source } = context
  const repo = new URL(source.url).pathname.replace(/^\/|\/$/g, '')
  const api = context.githubApi.replace(/\/$/, '')
  const headers: Record<string, string> = {
    'x-github-api-version': '2022-11-28',
    ...(source.token ? { authorization: `Bearer ${source.token}` } : {}),
  }
  const rateLimited = (outcome: DownloadOutcome): Refusal | undefined => {
    if (outcome.ok || !('response' in outcome) || outcome.response === undefined) return undefined
    return rateLimitRefusal(source.id, outcome.response)
  }
  const asset = async (
    id: string,
    maxBytes: number,
    onProgress?: (r: number, t: number | undefined) => void,
  ) => {
    const fetched = await download(`${api}/repos/${repo}/releases/assets/${id}`, {
      ...context.bounds,
      maxBytes,
      headers: { ...headers, accept: 'application/octet-stream' },
      ...(onProgress ? { onProgress } : {}),
    })
    return rateLimited(fetched) ?? fetched
  }

  return {
    async offering() {
      const releases: z.output<typeof releaseSchema>[] = []
      let next: string | undefined = `${api}/repos/${repo}/releases?per_page=${PER_PAGE}`
      for (let page = 0; next !== undefined && page < MAX_PAGES; page++) {
        const fetched = await download(next, {
          ...context.bounds,
          headers: { ...headers, accept: 'application/vnd.github+json' },
        })
        if (!fetched.ok) return rateLimited(fetched) ?? fetched
        const parsed = z.array(releaseSchema).safeParse(jsonOf(fetched.value.bytes))
        if (!parsed.success) return refused('sporangium_index_invalid', { source: source.id })
        releases.push(...parsed.data)
        next = nextLink(fetched.value.response.headers.get('link'))
      }
      return { ok: true, value: offeringOf(releases) }
    },
    archive: (offer, onProgress) => asset(offer.archive, context.bounds.maxBytes, onProgress),
    async signature(offer): Promise<OutcomeOf<string | undefined>> {
      if (offer.signatureAsset === undefined) return { ok: true, value: undefined }
      const fetched = await asset(offer.signatureAsset, SIGNATURE_MAX_BYTES)
      if (!fetched.ok) return fetched
      return { ok: true, value: new TextDecoder().decode(fetched.value.bytes).trim() }
    },
  }
}

/** Releases whose tag, asset, digest and front matter make a strain; any other release is not one. */
function offeringOf(releases: readonly z.output<typeof releaseSchema>[]): Offering {
  const spores = new Map<string, { kind: SporeOffer['kind']; description?: string; strains: StrainOffer[] }>()
  for (const release of releases) {
    const tag = TAG.exec(release.tag_name)
    if (release.draft || tag === null) continue
    const [, spore = '', strain = ''] = tag
    const archive = release.assets.find((a) => a.name === `${spore}-${strain}.tgz`)
    const sha256 = /^sha256:([0-9a-f]{64})$/.exec(archive?.digest ?? '')?.[1]
    const meta = frontMatterSchema.safeParse(frontMatterOf(release.body))
    // An asset without a digest cannot be proven; one without front matter says nothing of its kind.
    if (archive === undefined || sha256 === undefined || !meta.success) continue
    const signature = release.assets.find((a) => a.name === `${spore}-${strain}.tgz.sig`)
    // Releases come newest first: the newest release's description speaks for the spore.
    const entry = spores.get(spore) ?? {
      kind: meta.data.kind,
      ...(meta.data.description ? { description: meta.data.description } : {}),
      strains: [],
    }
    entry.strains.push({
      strain,
      septum: meta.data.septum,
      size: archive.size,
      sha256,
      archive: String(archive.id),
      ...(release.published_at ? { published: release.published_at } : {}),
      ...(signature ? { signatureAsset: String(signature.id) } : {}),
    })
    spores.set(spore, entry)
  }
  return { spores: [...spores].map(([name, entry]) => ({ name, ...entry })) }
}

function frontMatterOf(body: string | null | undefined): unknown {
  const block = FRONT_MATTER.exec(body ?? '')?.[1]
  if (block === undefined) return undefined
  try {
    return parse(block)
  } catch {
    return undefined
  }
}

function jsonOf(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return undefined
  }
}

/** The `rel="next"` target of a Link header, as GitHub paginates. */
export function nextLink(link: string | null): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part)
    if (match) return match[1]
  }
  return undefined
}

/** GitHub answers 403 or 429 when the rate limit is spent, with when it resets (epoch seconds). */
function rateLimitRefusal(source: string, response: Response): Refusal | undefined {
  if (response.status !== 403 && response.status !== 429) return undefined
  const remaining = response.headers.get('x-ratelimit-remaining')
  const reset = Number(response.headers.get('x-ratelimit-reset'))
  const retryHeader = response.headers.get('retry-after')
  const retryAfter = retryHeader === null ? Number.NaN : Number(retryHeader)
  if (remaining !== '0' && !Number.isFinite(retryAfter)) return undefined
  const at =
    Number.isFinite(reset) && reset > 0
      ? new Date(reset * 1000)
      : new Date(Date.now() + (retryAfter || 60) * 1000)
  return refused('github_rate_limited', { source, retryAt: at.toISOString() })
}
