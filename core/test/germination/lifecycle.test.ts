import { describe, expect, it } from 'bun:test'
import type { PluginKind } from '@mycelo/septum'
import { startAll, stopAll } from '../../germination/index.ts'
import {
  type Behaviour,
  germinateIn,
  lifecycleModule,
  manifestOf,
  resetJournal,
  SqliteStore,
  scratchRoot,
  sporeNamed,
  testContexts,
  writeSpore,
} from './fixtures.ts'

const root = scratchRoot()

interface Planted {
  readonly kind: PluginKind
  readonly requires?: object[]
  readonly behaviour?: Behaviour
}

/** Names chosen so that name order and dependency order differ. */
const garden = (overrides: Record<string, Behaviour> = {}): Record<string, Planted> => ({
  chat: { kind: 'hypha' },
  mail: { kind: 'hypha' },
  'zeta-db': { kind: 'rhiza' },
  'alpha-cache': { kind: 'rhiza', requires: [{ rhiza: 'zeta-db' }] },
  aardvark: { kind: 'enzyme', requires: [{ rhiza: 'alpha-cache' }] },
  solo: { kind: 'enzyme' },
  gate: { kind: 'inhibitor' },
  ...Object.fromEntries(
    Object.entries(overrides).map(([name, behaviour]) => [name, { kind: 'rhiza', behaviour }]),
  ),
})

async function plant(spores: Record<string, Planted>, overrides: Record<string, Behaviour> = {}) {
  for (const [name, { kind, requires, behaviour }] of Object.entries(spores)) {
    await writeSpore(root(), name, {
      manifest: manifestOf(kind, name, requires === undefined ? {} : { requires }),
      files: { 'src/index.ts': lifecycleModule(kind, name, overrides[name] ?? behaviour) },
    })
  }
  const { germination, logger } = await germinateIn(root(), SqliteStore.enabling(...Object.keys(spores)))
  return { germination, logger, journal: resetJournal() }
}

describe('startAll and stopAll', () => {
  it('connects hyphae, starts rhizas and enzymes in dependency order, then inhibitors, then listens', async () => {
    const { germination, logger, journal } = await plant(garden())

    await startAll(germination, testContexts(germination, logger))

    expect(journal).toEqual([
      'chat:connect',
      'mail:connect',
      'zeta-db:start',
      'alpha-cache:start',
      'aardvark:start',
      'solo:start',
      'gate:start',
      'chat:listen',
      'mail:listen',
    ])
    expect(germination.spores.every((spore) => spore.state === 'live')).toBe(true)
  })

  it('stops in reverse: hyphae first, then the rest, each dependant before what it requires', async () => {
    const { germination, logger, journal } = await plant(garden())
    await startAll(germination, testContexts(germination, logger))
    journal.length = 0

    await stopAll(germination, { timeoutMs: 5000, logger })

    expect(journal).toEqual([
      'mail:stop',
      'chat:stop',
      'gate:stop',
      'solo:stop',
      'aardvark:stop',
      'alpha-cache:stop',
      'zeta-db:stop',
    ])
    expect(germination.started).toEqual([])
  })

  it('makes a spore whose start fails dormant, with its dependants, which are then not started', async () => {
    const spores = garden()
    const { germination, logger, journal } = await plant(spores, { 'alpha-cache': { fail: 'start' } })

    await startAll(germination, testContexts(germination, logger))

    expect(sporeNamed(germination, 'alpha-cache').state).toBe('dormant')
    expect(sporeNamed(germination, 'alpha-cache').reason).toBe('start() failed: alpha-cache start broke')
    expect(sporeNamed(germination, 'aardvark').reason).toBe(
      'needs the connected system "alpha-cache", which is dormant',
    )
    expect(journal).toEqual([
      'chat:connect',
      'mail:connect',
      'zeta-db:start',
      'alpha-cache:start',
      'solo:start',
      'gate:start',
      'chat:listen',
      'mail:listen',
    ])
    expect(logger.entries.filter((entry) => entry.level === 'warn').map((entry) => entry.meta)).toEqual([
      { spore: 'alpha-cache', reason: 'start() failed: alpha-cache start broke' },
      { spore: 'aardvark', reason: 'needs the connected system "alpha-cache", which is dormant' },
    ])

    journal.length = 0
    await stopAll(germination, { timeoutMs: 5000, logger })
    expect(journal).toEqual(['mail:stop', 'chat:stop', 'gate:stop', 'solo:stop', 'zeta-db:stop'])
  })

  it('never listens on a hypha whose connect failed, nor stops it', async () => {
    const { germination, logger, journal } = await plant({
      chat: { kind: 'hypha', behaviour: { fail: 'connect' } },
    })

    await startAll(germination, testContexts(germination, logger))
    await stopAll(germination, { timeoutMs: 5000, logger })

    expect(sporeNamed(germination, 'chat').reason).toBe('connect() failed: chat connect broke')
    expect(journal).toEqual(['chat:connect'])
  })

  it('makes a hypha whose listen fails dormant, and still stops it, since it connected', async () => {
    const { germination, logger, journal } = await plant({
      chat: { kind: 'hypha', behaviour: { fail: 'listen' } },
    })

    await startAll(germination, testContexts(germination, logger))
    await stopAll(germination, { timeoutMs: 5000, logger })

    expect(sporeNamed(germination, 'chat').reason).toBe('listen() failed: chat listen broke')
    expect(journal).toEqual(['chat:connect', 'chat:listen', 'chat:stop'])
  })

  it('makes an inhibitor whose start fails dormant', async () => {
    const { germination, logger } = await plant({ gate: { kind: 'inhibitor', behaviour: { fail: 'start' } } })

    await startAll(germination, testContexts(germination, logger))

    expect(sporeNamed(germination, 'gate').state).toBe('dormant')
    expect(sporeNamed(germination, 'gate').reason).toBe('start() failed: gate start broke')
  })

  it('starts an enzyme or inhibitor that has no start() without calling anything', async () => {
    await writeSpore(root(), 'ping', {
      manifest: manifestOf('enzyme', 'ping', {
        commands: [{ name: 'ping', description: 'd', respond: 'pong' }],
      }),
    })
    await writeSpore(root(), 'open', {
      manifest: manifestOf('inhibitor', 'open'),
      files: { 'src/index.ts': `export default { create: () => ({ inspect: () => ({ allow: true }) }) }\n` },
    })
    const { germination, logger } = await germinateIn(root(), SqliteStore.enabling('ping', 'open'))

    await startAll(germination, testContexts(germination, logger))
    await stopAll(germination, { timeoutMs: 5000, logger })

    expect(germination.spores.map((spore) => spore.state)).toEqual(['live', 'live'])
  })

  it('abandons a stop() that hangs past the timeout with a warning, and still stops the rest', async () => {
    const spores = {
      first: { kind: 'rhiza' as const },
      hangs: { kind: 'rhiza' as const },
      last: { kind: 'rhiza' as const },
    }
    const { germination, logger, journal } = await plant(spores, { hangs: { hangOnStop: true } })
    await startAll(germination, testContexts(germination, logger))
    journal.length = 0

    await stopAll(germination, { timeoutMs: 30, logger })

    expect(journal).toEqual(['last:stop', 'hangs:stop', 'first:stop'])
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toEqual([
      {
        level: 'warn',
        message: 'deadline passed',
        meta: { spore: 'hangs', step: 'stop()', ms: 30 },
        bindings: {},
      },
    ])
  })

  it('logs a stop() that throws and goes on; stopAll never throws', async () => {
    const spores = { first: { kind: 'rhiza' as const }, throws: { kind: 'rhiza' as const } }
    const { germination, logger, journal } = await plant(spores, { throws: { fail: 'stop' } })
    await startAll(germination, testContexts(germination, logger))
    journal.length = 0

    await stopAll(germination, { timeoutMs: 5000, logger })

    expect(journal).toEqual(['throws:stop', 'first:stop'])
    expect(logger.entries.filter((entry) => entry.level === 'warn').map((entry) => entry.message)).toEqual([
      'stop() failed: throws stop broke',
    ])
  })
})
