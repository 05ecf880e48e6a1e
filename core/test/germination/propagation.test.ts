import { describe, expect, it } from 'bun:test'
import { sporeContext } from '../../germination/index.ts'
import {
  type Behaviour,
  germinateIn,
  lifecycleModule,
  manifestOf,
  memoryHoldings,
  memoryLogger,
  myceliumFor,
  resetJournal,
  SqliteStore,
  scratchRoot,
  sporeNamed,
  writeSpore,
} from './fixtures.ts'

const root = scratchRoot()

const spore = (kind: 'rhiza' | 'enzyme', name: string, requires: object[], behaviour?: Behaviour) =>
  writeSpore(root(), name, {
    manifest: manifestOf(kind, name, { requires }),
    files: { 'src/index.ts': lifecycleModule(kind, name, behaviour) },
  })

describe('propagation', () => {
  it('makes every spore that mandatorily requires a dormant one dormant, transitively, naming it', async () => {
    await writeSpore(root(), 'db', { manifest: manifestOf('rhiza', 'db') })
    await spore('rhiza', 'cache', [{ rhiza: 'db' }])
    await spore('enzyme', 'app', [{ rhiza: 'cache' }])
    await spore('enzyme', 'relaxed', [{ rhiza: 'db', optional: true }])
    const journal = resetJournal()

    const { germination } = await germinateIn(root(), SqliteStore.enabling('db', 'cache', 'app', 'relaxed'))

    expect(sporeNamed(germination, 'db').reason).toStartWith('no module found')
    expect(sporeNamed(germination, 'cache').state).toBe('dormant')
    expect(sporeNamed(germination, 'cache').reason).toBe('needs the connected system "db", which is dormant')
    expect(sporeNamed(germination, 'app').reason).toBe('needs the connected system "cache", which is dormant')
    const relaxed = sporeNamed(germination, 'relaxed')
    expect(relaxed.state).toBe('live')
    expect(relaxed.edges).toEqual(['db'])
    expect(
      sporeContext(relaxed, {
        germination,
        logger: memoryLogger(),
        mycelium: myceliumFor,
        ...memoryHoldings,
      }).has('db'),
    ).toBe(false)
    expect(journal).toEqual(['relaxed:create'])
  })

  it('propagates a disabled rhiza to its mandatory dependants', async () => {
    await spore('rhiza', 'db', [])
    await spore('enzyme', 'app', [{ rhiza: 'db' }])
    const store = SqliteStore.enabling('app')
    store.recordInstall('db', { enabled: false, reason: null })

    const { germination } = await germinateIn(root(), store)

    expect(sporeNamed(germination, 'db').state).toBe('disabled')
    expect(sporeNamed(germination, 'app').state).toBe('dormant')
    expect(sporeNamed(germination, 'app').reason).toBe('needs the connected system "db", which is disabled')
  })

  it('propagates a create() failure, and never creates the dependants', async () => {
    await spore('rhiza', 'db', [], { fail: 'create' })
    await spore('enzyme', 'app', [{ any_of: [{ rhiza: 'nothing' }, { rhiza: 'db' }] }])
    const journal = resetJournal()

    const { germination } = await germinateIn(root(), SqliteStore.enabling('db', 'app'))

    expect(sporeNamed(germination, 'db').reason).toBe('create() failed: db create broke')
    expect(sporeNamed(germination, 'app').reason).toBe('needs the connected system "db", which is dormant')
    expect(journal).toEqual(['db:create'])
  })
})
