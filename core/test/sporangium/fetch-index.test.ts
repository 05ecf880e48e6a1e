import { describe, expect, it } from 'bun:test'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fetchStrain, offeredBy } from '../../sporangium/fetching.ts'
import { insertSource } from '../../sporangium/source-rows.ts'
import { sourceOutcomes } from '../../sporangium/sources.ts'
import { refusalText } from '../mycelium/harness.ts'
import { newPublisher, sha256Of, writeSporangium } from '../support/publisher.ts'
import { archiveBytes, sporangiumBot } from './sporangium-bot.ts'

const world = sporangiumBot()
const bot = () => world.bot()
const listed = async (id: string) =>
  (await sourceOutcomes({ store: bot().store, config: bot().config }).listSources()).find((s) => s.id === id)

const films = {
  kind: 'enzyme' as const,
  description: 'Movie shortcuts',
  strains: {
    '1.0.0': { bytes: archiveBytes('films 1.0.0') },
    '1.2.0': { bytes: archiveBytes('films 1.2.0') },
    '1.3.0-beta.1': { bytes: archiveBytes('films beta') },
    '2.0.0': { bytes: archiveBytes('films 2.0.0'), septum: '^2.0' },
  },
}

describe('choosing a strain from an index', () => {
  it('fetches the newest strain whose septum range admits the running septum, proven, with progress', async () => {
    const { source } = await world.publish({ spores: { films } })
    const progress: [number, number | undefined][] = []
    const fetched = await fetchStrain(world.deps(), {
      source,
      spore: 'films',
      onProgress: (received, total) => progress.push([received, total]),
    })
    expect(fetched.ok).toBe(true)
    if (!fetched.ok) return
    const bytes = films.strains['1.2.0'].bytes
    expect(fetched.value).toMatchObject({
      spore: 'films',
      strain: '1.2.0',
      source,
      sha256: sha256Of(bytes),
      kind: 'enzyme',
      septum: '^1.0',
      description: 'Movie shortcuts',
    })
    expect(fetched.value.bytes).toEqual(bytes)
    expect(progress.at(-1)).toEqual([bytes.byteLength, bytes.byteLength])
  })

  it('fetches a named strain, a prerelease included', async () => {
    const { source } = await world.publish({ spores: { films } })
    const fetched = await fetchStrain(world.deps(), { source, spore: 'films', strain: '1.3.0-beta.1' })
    expect(fetched.ok && fetched.value.bytes).toEqual(films.strains['1.3.0-beta.1'].bytes)
  })

  it('refuses an unknown spore, an unknown strain, a strain for another septum, and a spore with none that runs here', async () => {
    const { source } = await world.publish({
      spores: { films, future: { strains: { '3.0.0': { bytes: archiveBytes('future'), septum: '^3.0' } } } },
    })
    const refusal = async (spore: string, strain?: string) =>
      refusalText(bot(), await fetchStrain(world.deps(), { source, spore, ...(strain ? { strain } : {}) }))
    expect(await refusal('music')).toBe(`The source "${source}" offers no spore named "music".`)
    expect(await refusal('films', '9.9.9')).toBe(`The source "${source}" offers no strain 9.9.9 of "films".`)
    expect(await refusal('films', '2.0.0')).toBe(
      'Strain 2.0.0 of "films" asks for septum ^2.0, which excludes septum 1.1.0, the one this core runs.',
    )
    expect(await refusal('future')).toBe(
      `The source "${source}" offers no strain of "future" that runs on septum 1.1.0.`,
    )
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'music' }), 'fr')).toContain(
      'ne propose aucune spore',
    )
  })

  it('lists what a source offers, each spore with its strains newest first', async () => {
    const { source } = await world.publish({
      spores: { films, echo: { kind: 'rhiza', strains: { '0.1.0': { bytes: archiveBytes('e') } } } },
    })
    const offered = await offeredBy(world.deps(), source)
    expect(offered.ok).toBe(true)
    if (!offered.ok) return
    expect(offered.value.map((spore) => [spore.name, spore.kind])).toEqual([
      ['echo', 'rhiza'],
      ['films', 'enzyme'],
    ])
    expect(offered.value[1]?.strains.map((s) => s.strain)).toEqual([
      '2.0.0',
      '1.3.0-beta.1',
      '1.2.0',
      '1.0.0',
    ])
    expect(offered.value[1]?.description).toBe('Movie shortcuts')
  })
})

describe('the source asked for', () => {
  it('refuses an unknown source, a disabled one, and a local one', async () => {
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source: 'nowhere', spore: 'films' }))).toBe(
      'No source is known by the id "nowhere".',
    )
    const { source } = await world.publish({ spores: { films } })
    await sourceOutcomes({ store: bot().store, config: bot().config }).updateSource(source, {
      enabled: false,
    })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toBe(
      `The source "${source}" is disabled; enable it before installing from it.`,
    )
    // No surface adds one, but a row may hold one (written by hand, or by an older core).
    insertSource(bot().store, {
      id: 'on-disk',
      label: 'On disk',
      url: 'file:///srv/spores',
      trust: 'third-party',
    })
    expect(
      refusalText(bot(), await fetchStrain(world.deps(), { source: 'on-disk', spore: 'films' })),
    ).toContain('is a local location')
  })

  it('refuses a loopback http source once the switch is turned off, without fetching', async () => {
    const { source, server } = await world.publish({ spores: { films } })
    const outcome = await fetchStrain(world.deps({}, { allowLoopbackHttp: false }), {
      source,
      spore: 'films',
    })
    expect(refusalText(bot(), outcome)).toContain('sporangia.allowLoopbackHttp')
    expect(server.requests).toEqual([])
  })

  it('sends the source token as a bearer token', async () => {
    const { source, server } = await world.publish({ spores: { films } }, { token: 'mirror-token' })
    expect((await fetchStrain(world.deps(), { source, spore: 'films' })).ok).toBe(true)
    expect(server.requests.map((r) => r.authorization)).toEqual([
      'Bearer mirror-token',
      'Bearer mirror-token',
    ])
  })

  it('refuses an index that is not one', async () => {
    const { source, folder } = await world.publish({ spores: { films } })
    await writeFile(join(folder, 'index.json'), JSON.stringify({ format: 2, name: 'x', spores: {} }))
    expect(refusalText(bot(), await offeredBy(world.deps(), source))).toBe(
      `The source "${source}" answered a listing this core cannot read.`,
    )
  })
})

describe('integrity', () => {
  it('refuses bytes whose size is not the published one', async () => {
    const bytes = archiveBytes('films')
    const { source } = await world.publish({
      spores: { films: { strains: { '1.0.0': { bytes, entry: { size: bytes.byteLength + 1 } } } } },
    })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toBe(
      `Refused: the archive of "films" 1.0.0 is 256 bytes, not the 257 its source published.`,
    )
  })

  it('refuses bytes whose SHA-256 is not the published one', async () => {
    const { source } = await world.publish({
      spores: {
        films: {
          strains: {
            '1.0.0': { bytes: archiveBytes('films'), entry: { sha256: sha256Of(archiveBytes('other')) } },
          },
        },
      },
    })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toContain(
      'SHA-256 mismatch',
    )
  })
})

describe('the publisher key', () => {
  it('is pinned on first sight of a signed index, and shown on the source', async () => {
    const publisher = await newPublisher()
    const { source } = await world.publish({ publisher, spores: { films } })
    expect((await listed(source))?.publisherKey).toBeUndefined()
    expect((await offeredBy(world.deps(), source)).ok).toBe(true)
    expect((await listed(source))?.publisherKey).toBe(publisher.key)
    expect((await fetchStrain(world.deps(), { source, spore: 'films' })).ok).toBe(true)
  })

  it('refuses an index that later names another key, even with every strain signed by it', async () => {
    const publisher = await newPublisher()
    const { source, folder } = await world.publish({ publisher, spores: { films } })
    expect((await fetchStrain(world.deps(), { source, spore: 'films' })).ok).toBe(true)
    await writeSporangium(folder, { publisher: await newPublisher(), spores: { films } })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toContain(
      'now names another publisher key',
    )
    expect((await listed(source))?.publisherKey).toBe(publisher.key)
  })

  it('verifies with the pinned key only: an index dropping its key and signatures refuses', async () => {
    const publisher = await newPublisher()
    const { source, folder } = await world.publish({ publisher, spores: { films } })
    expect((await offeredBy(world.deps(), source)).ok).toBe(true)
    await writeSporangium(folder, { spores: { films } })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toBe(
      'Refused: "films" 1.2.0 is not signed, and its source has a pinned publisher key.',
    )
  })

  it('refuses a signature made by another key than the pinned one, whatever key the index names', async () => {
    const publisher = await newPublisher()
    const { source, folder } = await world.publish({ publisher, spores: { films } })
    expect((await offeredBy(world.deps(), source)).ok).toBe(true)
    await writeSporangium(folder, {
      publisher: await newPublisher(),
      announcedKey: publisher.key,
      spores: { films },
    })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toBe(
      `Refused: the signature of "films" 1.2.0 does not verify with the key pinned for "${source}".`,
    )
  })

  it('refuses a signature for other bytes, replayed from another strain', async () => {
    const publisher = await newPublisher()
    const replayed = await publisher.sign('films', '1.0.0', films.strains['1.0.0'].bytes)
    const { source } = await world.publish({
      publisher,
      spores: {
        films: {
          strains: { '1.2.0': { bytes: films.strains['1.2.0'].bytes, entry: { signature: replayed } } },
        },
      },
    })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toContain(
      'does not verify with the key pinned',
    )
  })

  it('given when the source is added, refuses an unsigned index from the start', async () => {
    const publisher = await newPublisher()
    const { source } = await world.publish({ spores: { films } }, { publisherKey: publisher.key })
    expect((await listed(source))?.publisherKey).toBe(publisher.key)
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toContain(
      'is not signed',
    )
  })

  it('leaves an unsigned index from a source with no key to size and digest alone', async () => {
    const { source } = await world.publish({ spores: { films } })
    expect((await fetchStrain(world.deps(), { source, spore: 'films' })).ok).toBe(true)
    expect((await listed(source))?.publisherKey).toBeUndefined()
  })
})
