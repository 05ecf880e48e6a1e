import { describe, expect, it } from 'bun:test'
import { NEW_SPORE_REASON, report, startAll } from '../../germination/index.ts'
import {
  germinateIn,
  lifecycleModule,
  manifestOf,
  memoryLogger,
  resetJournal,
  SqliteStore,
  scratchRoot,
  sporeNamed,
  testContexts,
  writeSpore,
} from './fixtures.ts'

const root = scratchRoot()

const needsKey = `{
  safeParse: (input: unknown) => {
    const apiKey = (input as { apiKey?: unknown } | null)?.apiKey
    return typeof apiKey === 'string'
      ? { success: true as const, data: { apiKey } }
      : { success: false as const, error: { issues: [{ path: ['apiKey'], message: 'apiKey is required' }] } }
  },
}`
const configured = (kind: 'rhiza' | 'inhibitor', name: string, extra: Record<string, unknown> = {}) =>
  writeSpore(root(), name, {
    manifest: manifestOf(kind, name, extra),
    files: {
      'src/index.ts': lifecycleModule(kind, name).replace(
        'export default {',
        `export default {\n  configSchema: ${needsKey},`,
      ),
    },
  })
const plain = (name: string) =>
  writeSpore(root(), name, {
    manifest: manifestOf('rhiza', name),
    files: { 'src/index.ts': lifecycleModule('rhiza', name) },
  })

describe('enabled state', () => {
  it('on a fresh store, records enabled what validates and disabled the rest, with the reason', async () => {
    await plain('valid')
    await configured('rhiza', 'unset')
    await writeSpore(root(), 'refused', { manifest: { kind: 'rhiza', name: 'refused' } })
    const store = new SqliteStore()

    const { germination } = await germinateIn(root(), store)

    expect(Object.fromEntries(store.rows)).toEqual({
      valid: { enabled: true, reason: null },
      unset: {
        enabled: false,
        reason:
          'configuration is incomplete: apiKey: apiKey is required. Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
      },
      refused: { enabled: false, reason: expect.stringMatching(/^manifest refused: septum: /) },
    })
    expect(report(germination)).toEqual([
      {
        name: 'refused',
        kind: 'rhiza',
        state: 'disabled',
        reason: store.rows.get('refused')!.reason!,
        dir: `${root()}/refused`,
        isolation: 'inline',
      },
      {
        name: 'unset',
        kind: 'rhiza',
        state: 'disabled',
        reason:
          'configuration is incomplete: apiKey: apiKey is required. Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
        dir: `${root()}/unset`,
        isolation: 'inline',
      },
      { name: 'valid', kind: 'rhiza', state: 'live', dir: `${root()}/valid`, isolation: 'inline' },
    ])
  })

  it('keeps an enforcing inhibitor with a bad config enabled and dormant on the first start', async () => {
    await configured('inhibitor', 'guard', { enforcing: true })
    await configured('inhibitor', 'advisor')
    const store = new SqliteStore()

    const { germination } = await germinateIn(root(), store)

    expect(store.rows.get('guard')).toEqual({ enabled: true, reason: null })
    expect(sporeNamed(germination, 'guard').state).toBe('dormant')
    expect(sporeNamed(germination, 'guard').reason).toBe(
      'configuration is incomplete: apiKey: apiKey is required. Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
    )
    expect(store.rows.get('advisor')?.enabled).toBe(false)
    expect(sporeNamed(germination, 'advisor').state).toBe('disabled')
  })

  it('keeps an enforcing inhibitor whose manifest is refused enabled and dormant on the first start', async () => {
    await writeSpore(root(), 'guard', { manifest: { kind: 'inhibitor', name: 'guard', enforcing: true } })
    const store = new SqliteStore()

    const { germination } = await germinateIn(root(), store)

    expect(store.rows.get('guard')).toEqual({ enabled: true, reason: null })
    expect(sporeNamed(germination, 'guard').state).toBe('dormant')
    expect(sporeNamed(germination, 'guard').enforcing).toBe(true)
  })

  it('keeps enabled states on a restart: a disabled spore stays disabled with its reason', async () => {
    await plain('valid')
    await configured('rhiza', 'unset')
    const store = new SqliteStore()
    await germinateIn(root(), store)
    store.settings.set('unset', { apiKey: 'now set' })

    const { germination } = await germinateIn(root(), store)

    expect(sporeNamed(germination, 'valid').state).toBe('live')
    expect(sporeNamed(germination, 'unset').state).toBe('disabled')
    expect(sporeNamed(germination, 'unset').reason).toBe(
      'configuration is incomplete: apiKey: apiKey is required. Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
    )
  })

  it('starts a spore an operator enabled once its settings validate', async () => {
    await configured('rhiza', 'unset')
    const store = new SqliteStore()
    await germinateIn(root(), store)
    store.settings.set('unset', { apiKey: 'now set' })
    store.recordInstall('unset', { enabled: true, reason: null })

    const { germination } = await germinateIn(root(), store)

    expect(sporeNamed(germination, 'unset').state).toBe('live')
    expect(sporeNamed(germination, 'unset').config).toEqual({ apiKey: 'now set' })
  })

  it('records a spore found after the first start disabled as new, and never creates nor starts it', async () => {
    await plain('valid')
    const store = new SqliteStore()
    await germinateIn(root(), store)
    await plain('later')
    const journal = resetJournal()

    const { germination, logger } = await germinateIn(root(), store)
    await startAll(germination, testContexts(germination, logger))

    expect(store.rows.get('later')).toEqual({ enabled: false, reason: NEW_SPORE_REASON })
    expect(sporeNamed(germination, 'later').state).toBe('disabled')
    expect(sporeNamed(germination, 'later').reason).toBe('new: enable it to start it')
    expect(sporeNamed(germination, 'later').instance).toBeUndefined()
    expect(journal).toEqual(['valid:create', 'valid:start'])
  })

  it('does not even load the module of a disabled spore', async () => {
    await writeSpore(root(), 'off', {
      manifest: manifestOf('rhiza', 'off'),
      files: { 'src/index.ts': `throw new Error('must not be imported')\n` },
    })
    const store = new SqliteStore()
    store.recordInstall('off', { enabled: false, reason: null })

    const { germination } = await germinateIn(root(), store)

    expect(sporeNamed(germination, 'off').state).toBe('disabled')
    expect(sporeNamed(germination, 'off').reason).toBe('disabled by an operator')
  })

  it('does not let a disabled spore be started', async () => {
    await plain('off')
    const store = new SqliteStore()
    store.recordInstall('off', { enabled: false, reason: 'turned off for maintenance' })
    const journal = resetJournal()

    const { germination } = await germinateIn(root(), store)
    await startAll(germination, testContexts(germination, memoryLogger()))

    expect(sporeNamed(germination, 'off').reason).toBe('turned off for maintenance')
    expect(journal).toEqual([])
    expect(germination.started).toEqual([])
  })
})
