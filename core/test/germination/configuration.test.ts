import { describe, expect, it } from 'bun:test'
import {
  germinateIn,
  lifecycleModule,
  manifestOf,
  SqliteStore,
  scratchRoot,
  sporeNamed,
  writeSpore,
} from './fixtures.ts'

const root = scratchRoot()

/** A rhiza whose default export carries the given configSchema expression. */
const withSchema = (name: string, schema: string) =>
  writeSpore(root(), name, {
    manifest: manifestOf('rhiza', name),
    files: {
      'src/index.ts': `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const configSchema = ${schema}
${lifecycleModule('rhiza', name).replace('export default {', 'export default {\n  configSchema,')}`,
    },
  })

const handRolled = `{
  safeParse: (input: unknown) => {
    const apiKey = (input as { apiKey?: unknown } | null)?.apiKey
    return typeof apiKey === 'string' && apiKey.length > 0
      ? { success: true as const, data: { apiKey } }
      : {
          success: false as const,
          error: { issues: [{ path: ['apiKey'], message: 'apiKey is required' }, { path: [], message: 'nothing is set' }] },
        }
  },
}`

const germinateWith = async (name: string, settings: Record<string, unknown>) => {
  const store = SqliteStore.enabling(name)
  store.settings.set(name, settings)
  const { germination } = await germinateIn(root(), store)
  return sporeNamed(germination, name)
}

describe('configuration', () => {
  it('hands the spore the settings its schema parsed, defaults applied', async () => {
    await withSchema('radarr', `defineConfig(z.object({ url: z.url(), retries: z.number().default(3) }))`)

    const spore = await germinateWith('radarr', { url: 'http://127.0.0.1:7878' })

    expect(spore.state).toBe('live')
    expect(spore.config).toEqual({ url: 'http://127.0.0.1:7878', retries: 3 })
    expect(spore.configSchema).toBeDefined()
  })

  it('passes the stored settings through as-is when the spore has no schema', async () => {
    await writeSpore(root(), 'plain', {
      manifest: manifestOf('rhiza', 'plain'),
      files: { 'src/index.ts': lifecycleModule('rhiza', 'plain') },
    })

    const spore = await germinateWith('plain', { anything: ['goes'] })

    expect(spore.config).toEqual({ anything: ['goes'] })
  })

  it('makes a spore whose settings fail its schema dormant, the issues as path: message', async () => {
    await withSchema('radarr', handRolled)

    const spore = await germinateWith('radarr', {})

    expect(spore.state).toBe('dormant')
    expect(spore.reason).toBe('configuration is incomplete: apiKey: apiKey is required; nothing is set')
    expect(spore.config).toEqual({})
  })

  it('reports a defineConfig schema refusal the same way', async () => {
    await withSchema('radarr', `defineConfig(z.object({ apiKey: z.string().min(1) }))`)

    const spore = await germinateWith('radarr', {})

    expect(spore.reason).toBe(
      'configuration is incomplete: apiKey: Invalid input: expected string, received undefined',
    )
  })

  it('makes a spore dormant when secrets names a key its closed JSON Schema does not declare', async () => {
    await withSchema(
      'radarr',
      `defineConfig(z.object({ apiKey: z.string() }), { secrets: ['apiKey', 'apiKee'] })`,
    )

    const spore = await germinateWith('radarr', { apiKey: 'k' })

    expect(spore.state).toBe('dormant')
    expect(spore.reason).toBe('secrets names "apiKee", which the configuration schema does not declare')
  })

  it('exempts an open schema from the undeclared secrets check', async () => {
    await withSchema('radarr', `defineConfig(z.looseObject({ apiKey: z.string() }), { secrets: ['token'] })`)

    const spore = await germinateWith('radarr', { apiKey: 'k', token: 't' })

    expect(spore.state).toBe('live')
    expect(spore.secrets).toEqual(['token'])
  })

  it('keeps the secrets the default export declares', async () => {
    await withSchema('radarr', `defineConfig(z.object({ apiKey: z.string() }), { secrets: ['apiKey'] })`)

    const spore = await germinateWith('radarr', { apiKey: 'k' })

    expect(spore.state).toBe('live')
    expect(spore.secrets).toEqual(['apiKey'])
  })

  it('makes a spore whose safeParse throws dormant', async () => {
    await withSchema('radarr', `{ safeParse: () => { throw new Error('schema exploded') } }`)

    const spore = await germinateWith('radarr', {})

    expect(spore.reason).toBe('configuration cannot be checked: safeParse() threw: schema exploded')
  })
})
