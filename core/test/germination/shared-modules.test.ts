// A spore folder outside the checkout, germinated through the real core: @mycelo/septum and zod
// resolve to the core's own copies, unless the spore ships its own.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { RefusalError, SEPTUM_VERSION } from '@mycelo/septum'
import { z } from 'zod'
import { readManifest } from '../../germination/manifest-reading.ts'
import { loadModule } from '../../germination/module-loading.ts'
import { withSharedImports } from '../../germination/shared-modules.ts'
import { germinateIn, manifestOf, SqliteStore, sporeNamed, writeSpore } from './fixtures.ts'

const REPOSITORY = join(import.meta.dir, '..', '..', '..')

/** A rhiza whose api hands back what its imports resolved to. */
const rhizaExposing = (api: string) => `export default {
  configSchema,
  create: () => ({
    api: ${api},
    async start() {}, async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } },
  }),
}
`

// Several files, a subpath of each package, and the two packages imported in each form a module uses.
const OUTSIDE = {
  manifest: manifestOf('rhiza', 'outside'),
  files: {
    'src/schema.ts': `import { defineConfig } from '@mycelo/septum'
import { z } from "zod"
export const configSchema = defineConfig(z.object({ greeting: z.string().default('hi') }))
`,
    'src/index.ts': `import { RefusalError, SEPTUM_VERSION } from '@mycelo/septum'
import { enzymeChecks } from '@mycelo/septum/conformance'
import * as v4 from 'zod/v4'
import { z } from 'zod'
import { configSchema } from './schema.js'
const lazy = await import('zod')
${rhizaExposing('{ z, lazyZ: lazy.z, v4Z: v4.z, RefusalError, SEPTUM_VERSION, checks: typeof enzymeChecks }')}`,
  },
}

// Ships a zod of its own: it keeps it, and still reaches the core's septum.
const BUNDLED = {
  manifest: manifestOf('rhiza', 'bundled'),
  files: {
    'node_modules/zod/package.json': JSON.stringify({
      name: 'zod',
      version: '0.0.0-own',
      type: 'module',
      exports: { '.': './index.js' },
    }),
    'node_modules/zod/index.js': "export const z = { own: 'the copy this spore ships' }\n",
    'src/index.ts': `import { SEPTUM_VERSION } from '@mycelo/septum'
import { z } from 'zod'
const configSchema = undefined
${rhizaExposing('{ z, SEPTUM_VERSION }')}`,
  },
}

let folder: string
let germinated: Awaited<ReturnType<typeof germinateIn>>

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mycelo-outside-'))
  await writeSpore(folder, 'outside', OUTSIDE)
  await writeSpore(folder, 'bundled', BUNDLED)
  germinated = await germinateIn(folder, SqliteStore.enabling('outside', 'bundled'))
})

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

const apiOf = (name: string) => {
  const spore = sporeNamed(germinated.germination, name)
  expect({ state: spore.state, reason: spore.reason }).toEqual({ state: 'live', reason: undefined })
  return (spore.instance as { api: Record<string, unknown> }).api
}

describe('a spore outside the core tree', () => {
  it('is where this test means it to be: outside the checkout', () => {
    expect(relative(REPOSITORY, folder)).toStartWith('..')
  })

  it('imports @mycelo/septum and zod, subpaths included, as the very modules the core holds', () => {
    const api = apiOf('outside')
    expect(api.z).toBe(z)
    expect(api.lazyZ).toBe(z)
    expect(api.v4Z).toBeDefined()
    expect(api.RefusalError).toBe(RefusalError)
    expect(api.SEPTUM_VERSION).toBe(SEPTUM_VERSION)
    expect(api.checks).toBe('function')
    // Its schema, built from those imports in another of its files, validated its settings.
    expect(sporeNamed(germinated.germination, 'outside').config).toEqual({ greeting: 'hi' })
  })

  it('keeps the zod it ships in a node_modules of its own', () => {
    const api = apiOf('bundled')
    expect(api.z).toEqual({ own: 'the copy this spore ships' })
    expect(api.SEPTUM_VERSION).toBe(SEPTUM_VERSION)
  })
})

describe('withSharedImports', () => {
  const elsewhere = join(tmpdir(), 'nowhere-in-particular', 'src', 'index.ts')

  it('leaves a subpath the core does not have, and every other import, as written', () => {
    const source = `import { x } from 'zod/no-such-subpath'\nimport { y } from 'yaml'\nimport './local.js'\n`
    expect(withSharedImports(source, elsewhere)).toBe(source)
  })

  it('points a side-effect import and a require() at the core copy too', () => {
    const rewritten = withSharedImports(`import 'zod'\nconst s = require("@mycelo/septum")\n`, elsewhere)
    expect(rewritten).toBe(
      `import ${JSON.stringify(Bun.resolveSync('zod', import.meta.dir))}\nconst s = require(${JSON.stringify(
        Bun.resolveSync('@mycelo/septum', import.meta.dir),
      )})\n`,
    )
  })
})

describe('a fresh import of a spore outside the checkout', () => {
  it('reads the file as it is now and still resolves the shared packages', async () => {
    const root = await mkdtemp(join(tmpdir(), 'mycelo-fresh-'))
    try {
      const body = (word: string) =>
        `import { z } from 'zod'\nexport default { create: () => ({ word: '${word}', zod: typeof z.object }) }\n`
      const dir = await writeSpore(root, 'outside', { manifest: manifestOf('rhiza', 'outside'), files: {} })
      const read = (await readManifest(dir)).manifest!
      const created = async (fresh: number) => {
        const loaded = await loadModule(dir, read, { fresh })
        if (!loaded.ok) throw new Error(loaded.reason)
        return loaded.module!.exported.create() as { word: string; zod: string }
      }
      await Bun.write(join(dir, 'src/index.ts'), body('first'))
      expect(await created(1)).toEqual({ word: 'first', zod: 'function' })
      await Bun.write(join(dir, 'src/index.ts'), body('second'))
      expect(await created(2)).toEqual({ word: 'second', zod: 'function' })
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
