import { describe, expect, it } from 'bun:test'
import { sporeContext } from '../../germination/index.ts'
import {
  germinateIn,
  lifecycleModule,
  manifestOf,
  memoryHoldings,
  memoryLogger,
  myceliumFor,
  SqliteStore,
  scratchRoot,
  sporeNamed,
  writeSpore,
} from './fixtures.ts'

const root = scratchRoot()

const rhiza = (name: string, requires?: object[]) =>
  writeSpore(root(), name, {
    manifest: manifestOf('rhiza', name, requires === undefined ? {} : { requires }),
    files: { 'src/index.ts': lifecycleModule('rhiza', name) },
  })
const enzyme = (name: string, requires: object[]) =>
  writeSpore(root(), name, {
    manifest: manifestOf('enzyme', name, { requires }),
    files: { 'src/index.ts': lifecycleModule('enzyme', name) },
  })

describe('requires', () => {
  it('makes a spore whose mandatory rhiza is missing dormant, naming the target', async () => {
    await enzyme('movies', [{ rhiza: 'radarr' }])

    const { germination } = await germinateIn(root(), SqliteStore.enabling('movies'))

    const spore = sporeNamed(germination, 'movies')
    expect(spore.state).toBe('dormant')
    expect(spore.reason).toBe('needs the connected system "radarr", which is not installed')
  })

  it('names every alternative of an any_of none of which is installed', async () => {
    await enzyme('media', [{ any_of: [{ rhiza: 'radarr' }, { rhiza: 'sonarr' }] }])

    const { germination } = await germinateIn(root(), SqliteStore.enabling('media'))

    expect(sporeNamed(germination, 'media').reason).toBe(
      'requires one of the rhizas "radarr", "sonarr", none of which is installed',
    )
  })

  it('counts a requirement naming a spore that is not a rhiza as missing, and says so', async () => {
    await enzyme('helper', [])
    await enzyme('needy', [{ rhiza: 'helper' }])

    const { germination } = await germinateIn(root(), SqliteStore.enabling('helper', 'needy'))

    expect(sporeNamed(germination, 'needy').reason).toBe(
      'requires rhiza "helper", but "helper" is an enzyme, not a rhiza',
    )
    expect(sporeNamed(germination, 'needy').edges).toEqual([])
  })

  it('counts a rhiza whose manifest is refused as not installed', async () => {
    await writeSpore(root(), 'radarr', { manifest: { kind: 'rhiza', name: 'radarr' } })
    await enzyme('movies', [{ rhiza: 'radarr' }])

    const { germination } = await germinateIn(root(), SqliteStore.enabling('radarr', 'movies'))

    expect(sporeNamed(germination, 'movies').reason).toBe(
      'needs the connected system "radarr", which is not installed',
    )
  })

  it('leaves a spore with an absent optional rhiza live, its ctx.has() false', async () => {
    await enzyme('movies', [{ rhiza: 'radarr', optional: true }])

    const { germination } = await germinateIn(root(), SqliteStore.enabling('movies'))

    const spore = sporeNamed(germination, 'movies')
    expect(spore.state).toBe('live')
    expect(spore.edges).toEqual([])
    const ctx = sporeContext(spore, {
      germination,
      logger: memoryLogger(),
      mycelium: myceliumFor,
      ...memoryHoldings,
    })
    expect(ctx.has('radarr')).toBe(false)
  })

  it('never installs the mycelium nor makes it an edge, yet every spore may require it', async () => {
    await enzyme('admin', [{ rhiza: 'mycelium', scopes: ['plugins.read'] }])

    const { germination } = await germinateIn(root(), SqliteStore.enabling('admin'))

    const spore = sporeNamed(germination, 'admin')
    expect(spore.state).toBe('live')
    expect(spore.edges).toEqual([])
    expect(germination.byName.has('mycelium')).toBe(false)
  })

  it('collapses an any_of to the first installed alternative, which alone becomes an edge', async () => {
    await rhiza('sonarr')
    await rhiza('plex')
    await enzyme('media', [{ any_of: [{ rhiza: 'radarr' }, { rhiza: 'sonarr' }, { rhiza: 'plex' }] }])

    const { germination } = await germinateIn(root(), SqliteStore.enabling('sonarr', 'plex', 'media'))

    const spore = sporeNamed(germination, 'media')
    expect(spore.state).toBe('live')
    expect(spore.edges).toEqual(['sonarr'])
    expect(spore.mandatory).toEqual(['sonarr'])
  })

  it('finds no false cycle through an any_of alternative that is not the one installed', async () => {
    // radarr would close a cycle with media, but sonarr is the alternative installed first.
    await rhiza('sonarr')
    await rhiza('radarr', [{ rhiza: 'media-index' }])
    await rhiza('media-index', [{ any_of: [{ rhiza: 'sonarr' }, { rhiza: 'radarr' }] }])

    const { germination } = await germinateIn(root())

    expect(sporeNamed(germination, 'media-index').edges).toEqual(['sonarr'])
    expect(germination.order.map((spore) => spore.name)).toEqual(['sonarr', 'media-index', 'radarr'])
  })
})

describe('requires cycles', () => {
  const CYCLE = '(optional requirements included): '

  it('leaves a cycle of three spores joined only by optional edges dormant, naming all three; the rest start', async () => {
    await rhiza('alpha', [{ rhiza: 'beta', optional: true }])
    await rhiza('beta', [{ rhiza: 'gamma', optional: true }])
    await rhiza('gamma', [{ rhiza: 'alpha', optional: true }])
    await rhiza('outside', [{ rhiza: 'alpha' }])
    await rhiza('bystander')

    // The next start of a bot that had them all enabled: the cycle does not refuse the start.
    const store = SqliteStore.enabling('alpha', 'beta', 'gamma', 'outside', 'bystander')
    const { germination, logger } = await germinateIn(root(), store)

    for (const name of ['alpha', 'beta', 'gamma']) {
      expect(sporeNamed(germination, name).state).toBe('dormant')
      expect(sporeNamed(germination, name).reason).toBe(
        `its requires close a cycle ${CYCLE}alpha → beta → gamma; remove a requires entry to break it`,
      )
    }
    // Mandatorily requiring a spore of the cycle: dormant by propagation, naming what it lacks.
    expect(sporeNamed(germination, 'outside').state).toBe('dormant')
    expect(sporeNamed(germination, 'outside').reason).toContain('alpha')
    expect(sporeNamed(germination, 'bystander').state).toBe('live')
    const warned = logger.entries.filter((entry) => entry.message.includes('close a cycle'))
    expect(warned).toHaveLength(1)
  })

  it('names every spore in every cycle, wherever in the graph, including a spore requiring itself', async () => {
    await rhiza('a', [{ rhiza: 'b' }])
    await rhiza('b', [{ rhiza: 'a', optional: true }])
    await rhiza('c', [{ rhiza: 'd' }])
    await rhiza('d', [{ rhiza: 'e' }])
    await rhiza('e', [{ rhiza: 'c' }])
    await rhiza('loner', [{ rhiza: 'loner', optional: true }])
    await rhiza('fine', [{ rhiza: 'a', optional: true }])

    const { germination } = await germinateIn(root())

    const reasonOf = (name: string) => sporeNamed(germination, name).reason
    expect(reasonOf('a')).toContain(`${CYCLE}a → b;`)
    expect(reasonOf('b')).toContain(`${CYCLE}a → b;`)
    for (const name of ['c', 'd', 'e']) expect(reasonOf(name)).toContain(`${CYCLE}c → d → e;`)
    expect(reasonOf('loner')).toContain(`${CYCLE}loner;`)
    // Only optionally requiring a cycle member: it starts without it.
    expect(sporeNamed(germination, 'fine').state).toBe('live')
    expect(germination.order.map((spore) => spore.name)).toContain('fine')
  })

  it('counts the edges of a dormant spore, which keeps its own reason', async () => {
    await rhiza('old', [{ rhiza: 'new' }])
    await writeSpore(root(), 'new', {
      manifest: manifestOf('rhiza', 'new', { septum: '^0.5', requires: [{ rhiza: 'old' }] }),
    })

    const { germination } = await germinateIn(root())

    expect(sporeNamed(germination, 'old').reason).toContain(`${CYCLE}new → old;`)
    expect(sporeNamed(germination, 'new').reason).not.toContain('cycle')
  })

  it('on a first start, records the cycle spores disabled with the cycle as reason, and starts the rest', async () => {
    await rhiza('a', [{ rhiza: 'b' }])
    await rhiza('b', [{ rhiza: 'a' }])
    await rhiza('c')
    const store = new SqliteStore()

    const { germination } = await germinateIn(root(), store)

    expect(germination.spores.map((spore) => [spore.name, spore.state])).toEqual([
      ['a', 'disabled'],
      ['b', 'disabled'],
      ['c', 'live'],
    ])
    expect(sporeNamed(germination, 'a').reason).toContain('a → b')
    expect([...store.rows.keys()].sort()).toEqual(['a', 'b', 'c'])
  })
})
