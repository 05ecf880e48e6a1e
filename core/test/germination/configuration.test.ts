import { describe, expect, it } from 'bun:test'
import { coreCatalogues, SILENT } from '../../boot/catalogues.ts'
import { reasonInWords } from '../../i18n/reason-words.ts'
import { Translator } from '../../i18n/translator.ts'
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

/** A reader's translator, with the core's and the shared catalogues, as the runtime has them. */
const reader = new Translator({ defaultLocale: 'en', logger: SILENT })
reader.addDomain('core', coreCatalogues().core)
reader.addDomain('common', coreCatalogues().common)

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
    expect(spore.reason).toBe(
      'configuration is incomplete: apiKey: apiKey is required; nothing is set. Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
    )
    expect(spore.config).toEqual({})
  })

  it('words a defineConfig schema refusal for people: each field, what is wrong and what to do, no validator text', async () => {
    await withSchema('radarr', `defineConfig(z.object({ apiKey: z.string().min(1), retries: z.number() }))`)

    const spore = await germinateWith('radarr', { retries: 'three' })

    expect(spore.reason).toBe(
      'configuration is incomplete: apiKey: Required (expected text); retries: Expected a number, received text. Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.',
    )
    // The same reason in a French reader's words, the problems included.
    expect(reasonInWords(reader, spore.reason!, 'fr')).toBe(
      'la configuration est incomplète\u00a0: apiKey\u00a0: Obligatoire (attendu\u00a0: du texte); ' +
        'retries\u00a0: Attendu\u00a0: un nombre\u00a0; reçu\u00a0: du texte. Corrigez-la dans ses réglages\u00a0: ' +
        'Spores sur la page d’administration, /set dans la discussion, ou bun run mycelo set.',
    )
  })

  it('words a reason kept by another process (the first start, the install table) in the reader’s language too', () => {
    // Never worded in this process: read back from its English words alone.
    const kept =
      'configuration is incomplete: zeta.depth: Required (expected a number); omega: odd. Fix it in its settings: Spores on the admin page, /set in chat, or bun run mycelo set.'
    expect(reasonInWords(reader, kept, 'fr')).toBe(
      'la configuration est incomplète\u00a0: zeta.depth\u00a0: Obligatoire (attendu\u00a0: un nombre); omega: odd. ' +
        'Corrigez-la dans ses réglages\u00a0: Spores sur la page d’administration, /set dans la discussion, ou bun run mycelo set.',
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
