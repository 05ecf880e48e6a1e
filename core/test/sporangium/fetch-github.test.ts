import { afterEach, describe, expect, it } from 'bun:test'
import type { NewSource } from '@mycelo/septum'
import { fetchStrain, offeredBy } from '../../sporangium/fetching.ts'
import { refusalText } from '../mycelium/harness.ts'
import {
  type FakeGitHub,
  type FakeGitHubOptions,
  type FakeRelease,
  fakeGitHub,
} from '../support/fake-github.ts'
import { newPublisher, type Publisher, sha256Of } from '../support/publisher.ts'
import { archiveBytes, sporangiumBot } from './sporangium-bot.ts'

const world = sporangiumBot()
const bot = () => world.bot()
let github: FakeGitHub | undefined

afterEach(async () => {
  await github?.stop()
  github = undefined
})

const front = (kind: string, septum: string, description?: string) =>
  `---\nkind: ${kind}\nseptum: "${septum}"\n${description ? `description: ${description}\n` : ''}---\n\nRelease notes.`

async function release(
  spore: string,
  strain: string,
  options: { septum?: string; sign?: Publisher } = {},
): Promise<FakeRelease> {
  const bytes = archiveBytes(`${spore} ${strain}`)
  const signature = options.sign ? await options.sign.sign(spore, strain, bytes) : undefined
  return {
    tag: `${spore}@${strain}`,
    body: front('enzyme', options.septum ?? '^1.0', 'Movie shortcuts'),
    assets: [
      { name: `${spore}-${strain}.tgz`, bytes },
      ...(signature
        ? [{ name: `${spore}-${strain}.tgz.sig`, bytes: new TextEncoder().encode(`${signature}\n`) }]
        : []),
    ],
  }
}

/** Starts the fake with `acme/spores` and adds it as a source; answers the source id. */
async function repository(
  releases: readonly FakeRelease[],
  options: Omit<FakeGitHubOptions, 'repos'> = {},
  source: Partial<NewSource> = {},
) {
  github = fakeGitHub({ repos: { 'acme/spores': releases }, ...options })
  const id = await world.addSource({ label: 'Acme', url: 'https://github.com/acme/spores', ...source })
  return { id, deps: world.deps({}, { githubApi: github.api }), github }
}

describe('a GitHub releases sporangium', () => {
  it('offers each release tagged <spore>@<strain> with its asset, and fetches the newest that runs here', async () => {
    const releases = [
      await release('films', '2.0.0', { septum: '^2.0' }),
      await release('films', '1.2.0'),
      await release('films', '1.0.0'),
    ]
    const { id, deps, github } = await repository(releases)
    const offered = await offeredBy(deps, id)
    expect(offered.ok && offered.value).toEqual([
      {
        name: 'films',
        kind: 'enzyme',
        description: 'Movie shortcuts',
        strains: [
          { strain: '2.0.0', septum: '^2.0', published: expect.any(String) },
          { strain: '1.2.0', septum: '^1.0', published: expect.any(String) },
          { strain: '1.0.0', septum: '^1.0', published: expect.any(String) },
        ],
      },
    ])
    const progress: number[] = []
    const fetched = await fetchStrain(deps, {
      source: id,
      spore: 'films',
      onProgress: (r) => progress.push(r),
    })
    expect(fetched.ok).toBe(true)
    if (!fetched.ok) return
    expect(fetched.value).toMatchObject({ spore: 'films', strain: '1.2.0', kind: 'enzyme', septum: '^1.0' })
    expect(fetched.value.sha256).toBe(sha256Of(archiveBytes('films 1.2.0')))
    expect(progress.at(-1)).toBe(256)
    // The asset came through the API with the octet-stream Accept, then from the host it redirected to.
    const download = github.requests.filter((r) => r.path.includes('/releases/assets/'))
    expect(download.at(-1)?.accept).toBe('application/octet-stream')
    expect(github.requests.at(-1)?.host).toBe('objects')
  })

  it('reads every page the Link header points to', async () => {
    const releases: FakeRelease[] = []
    for (let i = 104; i >= 0; i--) releases.push(await release('films', `1.0.${i}`))
    releases.push(await release('oldest', '0.1.0'))
    const { id, github } = await repository(releases)
    // A page of a hundred releases is larger than the small limit the other tests run under.
    const deps = world.deps({ downloadBytes: 1024 * 1024 }, { githubApi: github.api })
    const fetched = await fetchStrain(deps, { source: id, spore: 'oldest' })
    expect(fetched.ok ? fetched.value.strain : fetched.refusal).toBe('0.1.0')
    expect(github.requests.filter((r) => r.path.includes('/releases?')).map((r) => r.path)).toEqual([
      '/repos/acme/spores/releases?per_page=100',
      '/repos/acme/spores/releases?per_page=100&page=2',
    ])
  })

  it('offers no strain for a draft, a tag of another shape, an asset without a digest or release notes without front matter', async () => {
    const plain = await release('films', '1.4.0')
    const undigested = await release('films', '1.3.0')
    const { id, deps } = await repository([
      { ...(await release('films', '1.5.0')), draft: true },
      { ...plain, body: 'Just notes.' },
      { ...undigested, assets: undigested.assets.map((asset) => ({ ...asset, digest: null })) },
      { ...(await release('films', '1.1.0')), tag: 'v1.1.0' },
      await release('films', '1.0.0'),
    ])
    const offered = await offeredBy(deps, id)
    expect(offered.ok && offered.value[0]?.strains.map((s) => s.strain)).toEqual(['1.0.0'])
    expect(refusalText(bot(), await fetchStrain(deps, { source: id, spore: 'films', strain: '1.3.0' }))).toBe(
      `The source "${id}" offers no strain 1.3.0 of "films".`,
    )
  })

  it('refuses an asset whose bytes are not the size or digest GitHub reports', async () => {
    const sized = await release('films', '1.0.0')
    const digested = await release('music', '1.0.0')
    const { id, deps } = await repository([
      { ...sized, assets: sized.assets.map((asset) => ({ ...asset, size: 999 })) },
      {
        ...digested,
        assets: digested.assets.map((asset) => ({
          ...asset,
          digest: `sha256:${sha256Of(archiveBytes('other'))}`,
        })),
      },
    ])
    expect(refusalText(bot(), await fetchStrain(deps, { source: id, spore: 'films' }))).toContain(
      'is 256 bytes, not the 999 its source published',
    )
    expect(refusalText(bot(), await fetchStrain(deps, { source: id, spore: 'music' }))).toContain(
      'SHA-256 mismatch',
    )
  })
})

describe('signatures on GitHub', () => {
  it('verifies the .sig asset with the key pinned when the source was added', async () => {
    const publisher = await newPublisher()
    const { id, deps } = await repository(
      [await release('films', '1.0.0', { sign: publisher })],
      {},
      { publisherKey: publisher.key },
    )
    expect((await fetchStrain(deps, { source: id, spore: 'films' })).ok).toBe(true)
  })

  it('refuses a strain with no .sig asset, or one signed by another key', async () => {
    const publisher = await newPublisher()
    const { id, deps } = await repository(
      [await release('films', '1.0.0'), await release('music', '1.0.0', { sign: await newPublisher() })],
      {},
      { publisherKey: publisher.key },
    )
    expect(refusalText(bot(), await fetchStrain(deps, { source: id, spore: 'films' }))).toContain(
      'is not signed',
    )
    expect(refusalText(bot(), await fetchStrain(deps, { source: id, spore: 'music' }))).toContain(
      'does not verify with the key pinned',
    )
  })
})

describe('GitHub access', () => {
  it('sends the source token as a bearer to the API, and never to the host a download redirects to', async () => {
    const { id, deps, github } = await repository(
      [await release('films', '1.0.0')],
      { token: 'ghp_acme' },
      { token: 'ghp_acme' },
    )
    expect((await fetchStrain(deps, { source: id, spore: 'films' })).ok).toBe(true)
    const api = github.requests.filter((r) => r.host === 'api')
    expect(api.length).toBe(2)
    expect(api.every((r) => r.authorization === 'Bearer ghp_acme')).toBe(true)
    const objects = github.requests.filter((r) => r.host === 'objects')
    expect(objects.length).toBe(1)
    expect(objects[0]?.authorization).toBeNull()
  })

  it('words a private repository reached without its token as the status GitHub answers', async () => {
    const { id, deps, github } = await repository([await release('films', '1.0.0')], { token: 'ghp_acme' })
    expect(refusalText(bot(), await offeredBy(deps, id))).toBe(
      `The server at ${github.api}/repos/acme/spores/releases?per_page=100 answered HTTP 404.`,
    )
  })

  it('refuses clearly once the rate limit is spent, naming when to retry', async () => {
    const resetAt = 1_900_000_000
    const { id, deps } = await repository([await release('films', '1.0.0')], { rateLimit: 1, resetAt })
    const outcome = await fetchStrain(deps, { source: id, spore: 'films' })
    const retryAt = new Date(resetAt * 1000).toISOString()
    expect(refusalText(bot(), outcome)).toBe(
      `GitHub refuses more requests for "${id}" for now (rate limit); try again after ${retryAt}.`,
    )
    expect(refusalText(bot(), outcome, 'fr')).toContain(`réessayez après ${retryAt}`)
  })
})
