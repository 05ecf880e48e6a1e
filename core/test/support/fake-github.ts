// A loopback fake of the part of GitHub's REST API a sporangium reads, shaped as GitHub documents
// it: the releases list (paginated by `per_page`/`page` with a `Link` header), an asset downloaded
// from /releases/assets/{id} with `Accept: application/octet-stream` answering a 302 to another
// host (GitHub's object storage), rate-limit headers, and a bearer token for a private repository.
import { createHash } from 'node:crypto'

export interface FakeAsset {
  readonly name: string
  readonly bytes: Uint8Array
  /** Overrides the `digest` GitHub reports (`sha256:<hex>`); null reports none, as for old assets. */
  readonly digest?: string | null
  /** Overrides the reported `size`. */
  readonly size?: number
}

export interface FakeRelease {
  readonly tag: string
  readonly body?: string
  readonly draft?: boolean
  readonly assets: readonly FakeAsset[]
}

export interface FakeGitHubOptions {
  /** `owner/repo` → its releases, newest first, as GitHub lists them. */
  readonly repos: Readonly<Record<string, readonly FakeRelease[]>>
  /** When set, the repositories are private: without this bearer token they are not found. */
  readonly token?: string
  /** Requests allowed before the rate limit is spent; unlimited when absent. */
  readonly rateLimit?: number
  /** Epoch seconds the spent limit resets at. */
  readonly resetAt?: number
}

export interface FakeRequest {
  readonly host: 'api' | 'objects'
  readonly path: string
  readonly authorization: string | null
  readonly accept: string | null
}

export interface FakeGitHub {
  /** What `sporangia.githubApi` is set to. */
  readonly api: string
  readonly requests: FakeRequest[]
  stop(): Promise<void>
}

export function fakeGitHub(options: FakeGitHubOptions): FakeGitHub {
  const requests: FakeRequest[] = []
  const assets = new Map<number, FakeAsset>()
  let nextId = 1000
  const listed = new Map<string, object[]>()
  let remaining = options.rateLimit ?? Number.POSITIVE_INFINITY
  const resetAt = options.resetAt ?? 1_900_000_000

  const objects = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url)
      requests.push(recorded('objects', url, request))
      const asset = assets.get(Number(url.pathname.split('/').pop()))
      return asset ? new Response(asset.bytes) : new Response('not found', { status: 404 })
    },
  })

  const api = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url)
      requests.push(recorded('api', url, request))
      const limits = rateHeaders()
      if (remaining <= 0) {
        return Response.json(
          {
            message: 'API rate limit exceeded for 127.0.0.1.',
            documentation_url: 'https://docs.github.com/rest',
          },
          { status: 403, headers: limits },
        )
      }
      remaining -= 1
      const authorization = request.headers.get('authorization')
      if (options.token !== undefined && authorization !== `Bearer ${options.token}`) {
        if (authorization !== null)
          return Response.json({ message: 'Bad credentials' }, { status: 401, headers: limits })
        return Response.json({ message: 'Not Found' }, { status: 404, headers: limits })
      }
      const list = /^\/repos\/([^/]+\/[^/]+)\/releases$/.exec(url.pathname)
      if (list) return releasesPage(url, list[1] ?? '', limits)
      const asset = /^\/repos\/[^/]+\/[^/]+\/releases\/assets\/(\d+)$/.exec(url.pathname)
      if (asset && assets.has(Number(asset[1]))) {
        if (request.headers.get('accept') !== 'application/octet-stream')
          return Response.json({ id: Number(asset[1]) }, { headers: limits })
        const target = `http://127.0.0.1:${objects.port}/objects/${asset[1]}`
        return new Response(null, { status: 302, headers: { ...limits, location: target } })
      }
      return Response.json({ message: 'Not Found' }, { status: 404, headers: limits })
    },
  })
  const base = `http://127.0.0.1:${api.port}`

  for (const [repo, releases] of Object.entries(options.repos)) {
    listed.set(
      repo,
      releases.map((release, index) => {
        const id = nextId++
        return {
          url: `${base}/repos/${repo}/releases/${id}`,
          id,
          tag_name: release.tag,
          name: release.tag,
          body: release.body ?? null,
          draft: release.draft ?? false,
          prerelease: false,
          created_at: new Date(Date.UTC(2026, 10, 30 - index)).toISOString(),
          published_at: release.draft ? null : new Date(Date.UTC(2026, 10, 30 - index)).toISOString(),
          assets: release.assets.map((asset) => {
            const assetId = nextId++
            assets.set(assetId, asset)
            return {
              url: `${base}/repos/${repo}/releases/assets/${assetId}`,
              id: assetId,
              name: asset.name,
              label: '',
              content_type: 'application/gzip',
              state: 'uploaded',
              size: asset.size ?? asset.bytes.byteLength,
              digest:
                asset.digest === undefined
                  ? `sha256:${createHash('sha256').update(asset.bytes).digest('hex')}`
                  : asset.digest,
              download_count: 0,
              browser_download_url: `https://github.com/${repo}/releases/download/${release.tag}/${asset.name}`,
            }
          }),
        }
      }),
    )
  }

  function rateHeaders(): Record<string, string> {
    if (options.rateLimit === undefined) return {}
    return {
      'x-ratelimit-limit': String(options.rateLimit),
      'x-ratelimit-remaining': String(Math.max(0, remaining - 1)),
      'x-ratelimit-reset': String(resetAt),
      'x-ratelimit-used': String(options.rateLimit - Math.max(0, remaining)),
      'x-ratelimit-resource': 'core',
    }
  }

  function releasesPage(url: URL, repo: string, headers: Record<string, string>): Response {
    const releases = listed.get(repo)
    if (releases === undefined) return Response.json({ message: 'Not Found' }, { status: 404, headers })
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30) || 30)
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1)
    const last = Math.max(1, Math.ceil(releases.length / perPage))
    const link = (n: number, rel: string) =>
      `<${base}/repos/${repo}/releases?per_page=${perPage}&page=${n}>; rel="${rel}"`
    const links = [
      ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
      ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : []),
    ]
    return Response.json(releases.slice((page - 1) * perPage, page * perPage), {
      headers: { ...headers, ...(links.length ? { link: links.join(', ') } : {}) },
    })
  }

  return {
    api: base,
    requests,
    async stop() {
      await Promise.all([api.stop(true), objects.stop(true)])
    },
  }
}

function recorded(host: 'api' | 'objects', url: URL, request: Request): FakeRequest {
  return {
    host,
    path: url.pathname + url.search,
    authorization: request.headers.get('authorization'),
    accept: request.headers.get('accept'),
  }
}
