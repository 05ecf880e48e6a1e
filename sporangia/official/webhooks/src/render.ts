// From a delivery to what is said: pure functions, so every format is tested without a server.
import { z } from 'zod'

/** A catalogue key and its values: rendered per target, in that conversation's language. */
export interface Wording {
  readonly key: string
  readonly params: Readonly<Record<string, unknown>>
}

/** Commits listed one by one in a push message; the rest are counted. */
export const COMMITS_LISTED = 5
/** Longest relayed text: a chat message, not a log. */
export const MAX_TEXT = 4000

const pushSchema = z.looseObject({
  ref: z.string(),
  repository: z.looseObject({ full_name: z.string() }),
  pusher: z.looseObject({ name: z.string() }).optional(),
  sender: z.looseObject({ login: z.string() }).optional(),
  compare: z.string().optional(),
  commits: z.array(
    z.looseObject({
      id: z.string(),
      message: z.string(),
      author: z.looseObject({ name: z.string() }).optional(),
    }),
  ),
})

const releaseSchema = z.looseObject({
  action: z.string(),
  repository: z.looseObject({ full_name: z.string() }),
  release: z.looseObject({
    tag_name: z.string(),
    name: z.string().nullish(),
    html_url: z.string(),
    prerelease: z.boolean().optional(),
  }),
})

export type GitHubReading =
  | { readonly kind: 'relay'; readonly wording: Wording; readonly lines: readonly Wording[] }
  | { readonly kind: 'ignored'; readonly event: string }
  | { readonly kind: 'malformed'; readonly problem: string }

const firstLine = (text: string) => text.split('\n', 1)[0]!.trim()

/** What a GitHub delivery says, by its X-GitHub-Event: pushes and published releases are relayed. */
export function readGitHub(event: string, payload: unknown): GitHubReading {
  if (event === 'push') {
    const push = pushSchema.safeParse(payload)
    if (!push.success) return { kind: 'malformed', problem: push.error.message }
    const { ref, repository, commits } = push.data
    const who = push.data.pusher?.name ?? push.data.sender?.login ?? '?'
    const branch = ref.replace(/^refs\/(heads|tags)\//, '')
    const lines: Wording[] = commits.slice(0, COMMITS_LISTED).map((commit) => ({
      key: 'github.commit',
      params: {
        sha: commit.id.slice(0, 7),
        message: firstLine(commit.message),
        author: commit.author?.name ?? '',
      },
    }))
    if (commits.length > COMMITS_LISTED)
      lines.push({ key: 'github.moreCommits', params: { count: commits.length - COMMITS_LISTED } })
    const params = {
      who,
      repo: repository.full_name,
      branch,
      count: commits.length,
      compare: push.data.compare ?? '',
    }
    return { kind: 'relay', wording: { key: 'github.push', params }, lines }
  }
  if (event === 'release') {
    const release = releaseSchema.safeParse(payload)
    if (!release.success) return { kind: 'malformed', problem: release.error.message }
    // Drafts, edits and deletions are noise in a chat: only the moment it is out is relayed.
    if (release.data.action !== 'published')
      return { kind: 'ignored', event: `release.${release.data.action}` }
    const { tag_name: tag, name, html_url: url, prerelease } = release.data.release
    const params = { repo: release.data.repository.full_name, tag, name: name || tag, url }
    return {
      kind: 'relay',
      wording: { key: prerelease ? 'github.prerelease' : 'github.release', params },
      lines: [],
    }
  }
  return { kind: 'ignored', event }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*)\s*\}\}/g

/** The value at a dotted path (`a.b.0.c`), or undefined. */
function at(data: unknown, path: string): unknown {
  let value = data
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

/**
 * The operator's template with every `{{path}}` replaced by that field of the JSON; a missing field
 * becomes empty, an object or list its JSON. The result is cut to MAX_TEXT.
 */
export function fillTemplate(template: string, data: unknown): string {
  const filled = template.replace(PLACEHOLDER, (_match, path: string) => {
    const value = at(data, path)
    if (value === undefined || value === null) return ''
    return typeof value === 'object' ? JSON.stringify(value) : String(value)
  })
  return cut(filled)
}

export function cut(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`
}
