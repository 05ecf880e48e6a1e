// A reload evaluates a spore's whole graph of its own files anew, not only its entry: a change in a
// file its entry imports (or one that file imports) takes effect, wherever the spore folder lives.
import { afterEach, describe, expect, it } from 'bun:test'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseManifest } from '@mycelo/septum'
import { loadModule } from '../../germination/module-loading.ts'
import { withVersionedImports } from '../../germination/shared-modules.ts'

const MANIFEST = 'kind: rhiza\nname: deep\nseptum: "^1.0"\n'
const made: string[] = []
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true })
})

/** A rhiza whose api answers what a file two imports down says. */
async function deepSpore(dir: string, word: string): Promise<void> {
  const files: Record<string, string> = {
    'spore.yaml': MANIFEST,
    'src/index.ts': `import { phrase } from './words.ts'
export default { create: () => ({ api: { phrase }, async start() {}, async stop() {},
  async health() { return { state: 'healthy', checkedAt: new Date() } } }) }
`,
    'src/words.ts': `import { WORD } from './deeper/word.ts'\nexport const phrase = () => 'said ' + WORD\n`,
    'src/deeper/word.ts': `export const WORD = '${word}'\n`,
  }
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), text)
  }
}

async function phraseOf(dir: string, fresh: boolean): Promise<string> {
  const manifest = parseManifest({ kind: 'rhiza', name: 'deep', septum: '^1.0' })
  const loaded = await loadModule(dir, manifest, fresh ? { fresh: 1 } : {})
  if (!loaded.ok || loaded.module === undefined) throw new Error(`not loaded: ${JSON.stringify(loaded)}`)
  const instance = loaded.module.exported.create() as { api: { phrase(): string } }
  return instance.api.phrase()
}

describe('a reload', () => {
  it('reads a changed file two imports below the entry, for a spore outside the core tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mycelo-deep-'))
    made.push(dir)
    await deepSpore(dir, 'first')
    expect(await phraseOf(dir, false)).toBe('said first')
    await writeFile(join(dir, 'src/deeper/word.ts'), "export const WORD = 'second'\n")
    expect(await phraseOf(dir, true)).toBe('said second')
    await writeFile(join(dir, 'src/deeper/word.ts'), "export const WORD = 'third'\n")
    expect(await phraseOf(dir, true)).toBe('said third')
  })

  it('does the same for a spore inside the core tree, as the first-party spores are', async () => {
    const tree = resolve(import.meta.dir, '..', '..', '..')
    const dir = await mkdtemp(join(tree, '.reload-scratch-'))
    made.push(dir)
    await deepSpore(dir, 'first')
    expect(await phraseOf(dir, false)).toBe('said first')
    await writeFile(join(dir, 'src/deeper/word.ts'), "export const WORD = 'second'\n")
    expect(await phraseOf(dir, true)).toBe('said second')
  })
})

describe('the reload query carried onto relative imports', () => {
  it('reaches every form of relative import, and leaves packages and queried ones alone', () => {
    const source = [
      "import { a } from './a.ts'",
      "export * from '../b.ts'",
      "import './side.ts'",
      'const c = await import("./c.ts")',
      "import { z } from 'zod'",
      "import d from './d.ts?raw'",
    ].join('\n')
    expect(withVersionedImports(source, '?v=7').split('\n')).toEqual([
      "import { a } from './a.ts?v=7'",
      "export * from '../b.ts?v=7'",
      "import './side.ts?v=7'",
      'const c = await import("./c.ts?v=7")',
      "import { z } from 'zod'",
      "import d from './d.ts?raw'",
    ])
  })
})
