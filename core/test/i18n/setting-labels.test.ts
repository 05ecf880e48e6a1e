// Every setting of the checkout's spores and the official ones is labelled in each language: a
// field's .describe() names settings.<field>, whose label and help the spore's catalogues hold in
// en and fr. A field described in plain words would read in English on every surface.
import { describe, expect, it } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'

const ROOT = join(import.meta.dir, '..', '..', '..')
const FOLDERS = ['spores', join('sporangia', 'official')]
  .flatMap((parent) => readdirSync(join(ROOT, parent)).map((name) => join(ROOT, parent, name)))
  .filter((dir) => existsSync(join(dir, 'spore.yaml')) && existsSync(join(dir, 'src', 'index.ts')))

function leaf(catalogue: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue)
}

describe('setting labels', () => {
  for (const dir of FOLDERS) {
    it(`${dir.slice(ROOT.length + 1)}: each setting names a label and help in en and fr`, async () => {
      const module = (await import(join(dir, 'src', 'index.ts'))).default as {
        configSchema?: { toJsonSchema(): { properties?: Record<string, { description?: string }> } }
      }
      const properties = module.configSchema?.toJsonSchema().properties ?? {}
      for (const locale of ['en', 'fr']) {
        const file = join(dir, 'translations', `${locale}.yaml`)
        const catalogue = existsSync(file) ? parse(await Bun.file(file).text()) : {}
        for (const [field, property] of Object.entries(properties)) {
          const where = `${field} in ${locale}`
          expect(property.description, where).toBe(`settings.${field}`)
          expect(typeof leaf(catalogue, `settings.${field}.label`), where).toBe('string')
          expect(typeof leaf(catalogue, `settings.${field}.help`), where).toBe('string')
        }
      }
    })
  }
})
