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

const rhizaWithApi = (owner: string) => `export default {
  create: () => ({
    async start() {}, async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } },
    api: { owner: '${owner}' },
  }),
}
`
const germinateOne = async (name: string) => {
  const { germination } = await germinateIn(root(), SqliteStore.enabling(name))
  return sporeNamed(germination, name)
}

describe('module', () => {
  it('tries src/index.ts first, then index.ts, dist/index.js and index.js', async () => {
    await writeSpore(root(), 'first', {
      manifest: manifestOf('rhiza', 'first'),
      files: {
        'src/index.ts': rhizaWithApi('src/index.ts'),
        'index.ts': rhizaWithApi('index.ts'),
        'index.js': 'throw new Error("never loaded")',
      },
    })
    await writeSpore(root(), 'second', {
      manifest: manifestOf('rhiza', 'second'),
      files: { 'index.ts': rhizaWithApi('index.ts'), 'dist/index.js': rhizaWithApi('dist') },
    })
    await writeSpore(root(), 'third', {
      manifest: manifestOf('rhiza', 'third'),
      files: { 'dist/index.js': rhizaWithApi('dist/index.js'), 'index.js': rhizaWithApi('index.js') },
    })
    await writeSpore(root(), 'fourth', {
      manifest: manifestOf('rhiza', 'fourth'),
      files: { 'index.js': rhizaWithApi('index.js') },
    })

    const { germination } = await germinateIn(
      root(),
      SqliteStore.enabling('first', 'second', 'third', 'fourth'),
    )

    const apiOf = (name: string) =>
      (sporeNamed(germination, name).instance as { api: { owner: string } }).api.owner
    expect(['first', 'second', 'third', 'fourth'].map(apiOf)).toEqual([
      'src/index.ts',
      'index.ts',
      'dist/index.js',
      'index.js',
    ])
  })

  it('loads a spore split over several files importing each other with .js specifiers', async () => {
    await writeSpore(root(), 'split', {
      manifest: manifestOf('rhiza', 'split'),
      files: {
        'src/index.ts': `import { greeting } from './words/greeting.js'
export default {
  create: () => ({
    async start() {}, async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } },
    api: { greet: (name: string) => greeting(name) },
  }),
}
`,
        'src/words/greeting.ts': `import { punctuation } from './punctuation.js'
export const greeting = (name: string): string => 'hello ' + name + punctuation
`,
        'src/words/punctuation.ts': `export const punctuation = '!'\n`,
      },
    })

    const spore = await germinateOne('split')

    expect(spore.state).toBe('live')
    expect((spore.instance as { api: { greet(name: string): string } }).api.greet('ada')).toBe('hello ada!')
  })

  it('needs no module for an enzyme whose commands all respond', async () => {
    await writeSpore(root(), 'ping', {
      manifest: manifestOf('enzyme', 'ping', {
        commands: [{ name: 'ping', description: 'ping.description', respond: 'pong' }],
      }),
    })

    const spore = await germinateOne('ping')

    expect(spore.state).toBe('live')
    expect(spore.instance).toEqual({ handlers: {} })
  })

  it('makes an enzyme with a code command and no module dormant, listing where it looked', async () => {
    await writeSpore(root(), 'coded', { manifest: manifestOf('enzyme', 'coded') })

    const spore = await germinateOne('coded')

    expect(spore.state).toBe('dormant')
    expect(spore.reason).toBe('no module found, looked for src/index.ts, index.ts, dist/index.js, index.js')
  })

  it('makes a hypha with no module dormant', async () => {
    await writeSpore(root(), 'silent', { manifest: manifestOf('hypha', 'silent') })

    expect((await germinateOne('silent')).reason).toBe(
      'no module found, looked for src/index.ts, index.ts, dist/index.js, index.js',
    )
  })

  it('makes a spore whose module throws at import dormant, with the error', async () => {
    await writeSpore(root(), 'throws', {
      manifest: manifestOf('rhiza', 'throws'),
      files: { 'src/index.ts': `throw new Error('no database url at import time')\nexport default {}\n` },
    })

    expect((await germinateOne('throws')).reason).toBe(
      'module src/index.ts failed to load: src/index.ts:1:11: no database url at import time',
    )
  })

  it('names the file, line and column of a syntax error, in an imported file too, and how many more', async () => {
    await writeSpore(root(), 'typo', {
      manifest: manifestOf('rhiza', 'typo'),
      files: {
        'src/index.ts': `import { api } from './parts/api.ts'\nexport default { create: () => api }\n`,
        'src/parts/api.ts': `export const api = {\n  owner: 'me' ]\n}\n`,
      },
    })

    expect((await germinateOne('typo')).reason).toBe(
      'module src/index.ts failed to load: src/parts/api.ts:2:15: Expected "}" but found "]" (and 1 more)',
    )
  })

  it('names the file, line and column of an import that cannot be found', async () => {
    await writeSpore(root(), 'lost', {
      manifest: manifestOf('rhiza', 'lost'),
      files: {
        'src/index.ts': `// the store\nimport { store } from './store.ts'\nexport default { create: () => store }\n`,
      },
    })

    expect((await germinateOne('lost')).reason).toBe(
      "module src/index.ts failed to load: src/index.ts:2:23: Cannot find module './store.ts' imported from " +
        `${root()}/lost/src/index.ts`,
    )
  })

  it('makes a spore whose module will not load dormant', async () => {
    await writeSpore(root(), 'broken', {
      manifest: manifestOf('rhiza', 'broken'),
      files: {
        'src/index.ts': `import { missing } from './nowhere.js'\nexport default { create: () => missing }\n`,
      },
    })

    const spore = await germinateOne('broken')

    expect(spore.state).toBe('dormant')
    expect(spore.reason).toStartWith('module src/index.ts failed to load: ')
    expect(spore.reason).toContain('nowhere.js')
  })

  it('makes a spore whose default export has no create() dormant', async () => {
    await writeSpore(root(), 'no-default', {
      manifest: manifestOf('rhiza', 'no-default'),
      files: { 'src/index.ts': `export function create() { return {} }\n` },
    })
    await writeSpore(root(), 'no-create', {
      manifest: manifestOf('rhiza', 'no-create'),
      files: { 'src/index.ts': `export default { make: () => ({}) }\n` },
    })

    const { germination } = await germinateIn(root(), SqliteStore.enabling('no-default', 'no-create'))

    for (const name of ['no-default', 'no-create']) {
      expect(sporeNamed(germination, name).state).toBe('dormant')
      expect(sporeNamed(germination, name).reason).toBe(
        'module src/index.ts has no default export with a create() function',
      )
    }
  })

  it('makes a spore whose configSchema has no safeParse() dormant', async () => {
    await writeSpore(root(), 'odd-schema', {
      manifest: manifestOf('rhiza', 'odd-schema'),
      files: {
        'src/index.ts': lifecycleModule('rhiza', 'odd-schema').replace(
          'export default {',
          'export default {\n  configSchema: { parse: () => ({}) },',
        ),
      },
    })

    expect((await germinateOne('odd-schema')).reason).toBe(
      'module src/index.ts: the default export has a configSchema without a safeParse() function',
    )
  })

  it('ignores a named configSchema export, and the secrets declared with it', async () => {
    await writeSpore(root(), 'named', {
      manifest: manifestOf('rhiza', 'named'),
      files: {
        'src/index.ts': `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

export const configSchema = defineConfig(z.strictObject({ apiKey: z.string().min(1) }), {
  secrets: ['apiKey', 'undeclared'],
})

${lifecycleModule('rhiza', 'named')}`,
      },
    })
    const store = SqliteStore.enabling('named')
    store.settings.set('named', { colour: 'green' })

    const { germination } = await germinateIn(root(), store)

    const spore = sporeNamed(germination, 'named')
    expect(spore.state).toBe('live')
    expect(spore.configSchema).toBeUndefined()
    expect(spore.secrets).toEqual([])
    expect(spore.config).toEqual({ colour: 'green' })
  })
})
