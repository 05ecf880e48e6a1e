import { describe, expect, it } from 'bun:test'
import { germinateIn, lifecycleModule, manifestOf, SqliteStore, scratchRoot, writeSpore } from './fixtures.ts'

const root = scratchRoot()

/** A module that marks this process when imported, and needs a `token` setting. */
const marking = (kind: 'hypha' | 'rhiza' | 'inhibitor', name: string) =>
  lifecycleModule(kind, name).replace(
    'export default {',
    `globalThis.__imported ??= []
globalThis.__imported.push(${JSON.stringify(name)})
export default {
  configSchema: {
    safeParse: (input) =>
      typeof input?.token === 'string'
        ? { success: true, data: { token: input.token } }
        : { success: false, error: { issues: [{ path: ['token'], message: 'token is required' }] } },
  },`,
  )

const imported = () => (globalThis as { __imported?: string[] }).__imported ?? []

describe('the first start', () => {
  it('never imports into the bot the module of a spore it records disabled; it imports those it enables', async () => {
    await writeSpore(root(), 'probe-unset', {
      manifest: manifestOf('rhiza', 'probe-unset'),
      files: { 'src/index.ts': marking('rhiza', 'probe-unset') },
    })
    await writeSpore(root(), 'probe-set', {
      manifest: manifestOf('rhiza', 'probe-set'),
      files: { 'src/index.ts': marking('rhiza', 'probe-set') },
    })
    const store = new SqliteStore()
    store.settings.set('probe-set', { token: 'abc' })

    const { germination } = await germinateIn(root(), store)

    expect(Object.fromEntries(store.rows)).toEqual({
      'probe-set': { enabled: true, reason: null },
      'probe-unset': {
        enabled: false,
        reason:
          'configuration is incomplete: token: token is required. Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
      },
    })
    expect(germination.byName.get('probe-unset')?.state).toBe('disabled')
    expect(germination.byName.get('probe-set')?.state).toBe('live')
    expect(imported()).toContain('probe-set')
    expect(imported()).not.toContain('probe-unset')
  })

  it('keeps an enforcing inhibitor that fails its checks enabled and dormant, without importing it', async () => {
    await writeSpore(root(), 'probe-guard', {
      manifest: manifestOf('inhibitor', 'probe-guard', { enforcing: true }),
      files: { 'src/index.ts': marking('inhibitor', 'probe-guard') },
    })
    const store = new SqliteStore()
    const { germination } = await germinateIn(root(), store)
    expect(store.rows.get('probe-guard')).toEqual({ enabled: true, reason: null })
    const guard = germination.byName.get('probe-guard')!
    expect([guard.state, guard.reason]).toEqual([
      'dormant',
      'configuration is incomplete: token: token is required. Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
    ])
    expect(imported()).not.toContain('probe-guard')
  })

  it('decides in the bot a spore whose module fails only in the probe: the probe can keep a module out, never a spore', async () => {
    const flaky = lifecycleModule('rhiza', 'probe-flaky').replace(
      'export default {',
      `if (process.argv.some((arg) => arg.endsWith('probe-main.ts'))) throw new Error('only in the probe')
export default {`,
    )
    await writeSpore(root(), 'probe-flaky', {
      manifest: manifestOf('rhiza', 'probe-flaky'),
      files: { 'src/index.ts': flaky },
    })
    const store = new SqliteStore()
    const { germination } = await germinateIn(root(), store)
    expect(store.rows.get('probe-flaky')).toEqual({ enabled: true, reason: null })
    expect(germination.byName.get('probe-flaky')?.state).toBe('live')
  })
})
