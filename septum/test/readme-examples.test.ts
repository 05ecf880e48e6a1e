// Every TypeScript example of the septum README, typechecked as an author would compile it: the
// blocks (and the manifests and catalogues they name) written into a project outside the checkout
// that installed the packed septum, then tsc over all of them, then the tests among them run.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type AuthorProject, authorProject, run, said, TSC } from './support/packed-septum.ts'
import { EXAMPLES_TSCONFIG, readmeExamples, writeExamples } from './support/readme-examples.ts'

const README = readFileSync(join(import.meta.dir, '..', 'README.md'), 'utf8')
let project: AuthorProject | undefined
afterAll(() => project?.remove(), 60_000)

/** A project with the packed septum and what the examples import (zod, effect, Bun's types). */
function installed(): AuthorProject {
  project ??= authorProject({
    installer: 'npm',
    dependencies: { zod: '4.6.7', effect: '4.1.0' },
    devDependencies: { '@types/bun': '1.4.5' },
  })
  return project
}

/** Writes `examples` into a fresh folder of the project and answers tsc's run over them. */
function typecheck(folder: string, markdown: string) {
  const dir = join(installed().dir, folder)
  mkdirSync(dir, { recursive: true })
  const paths = writeExamples(dir, readmeExamples(markdown))
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(EXAMPLES_TSCONFIG, null, 2))
  return { paths, result: run(TSC, ['-p', 'tsconfig.json'], dir) }
}

/** tsc's lines, each file named with the README line its block starts at. */
function located(output: string, paths: ReadonlyMap<string, number>): string {
  return output.replace(/^([^\s(]+)\((\d+),(\d+)\)/gm, (whole, file: string) => {
    const line = paths.get(file)
    return line === undefined ? whole : `${whole} [the README block at line ${line}]`
  })
}

describe('the septum README’s examples', () => {
  it('finds every ts block, and reads a fragment’s declarations from the comment above it', () => {
    const examples = readmeExamples(README)
    const typescript = examples.filter((example) => example.language === 'ts')
    expect(typescript.length).toBe(README.split('\n').filter((line) => line.startsWith('```ts')).length)
    expect(typescript.length).toBeGreaterThanOrEqual(20)
    const [fragment] = readmeExamples(
      'Text.\n\n<!-- typecheck-with:\ndeclare const x: number\n-->\n```ts\nx + 1\n```\n',
    )
    expect(fragment).toEqual({
      line: 6,
      path: 'examples/line-0006.ts',
      prelude: 'declare const x: number',
      code: 'x + 1',
      language: 'ts',
    })
  })

  it('typechecks every block against the installed package, and its tests pass there', () => {
    const { paths, result } = typecheck('readme', README)
    expect(result.status, located(said(result), paths)).toBe(0)
    const tests = [...paths.keys()].filter((path) => path.endsWith('.test.ts'))
    expect(tests.sort()).toEqual([
      'forecast/test/forecast.test.ts',
      'radarr-helper/test/radarr-helper.test.ts',
    ])
    const ran = run(
      process.execPath,
      ['test', ...tests.map((path) => `./${path}`)],
      join(installed().dir, 'readme'),
    )
    expect(ran.status, said(ran)).toBe(0)
    expect(ran.stderr).toMatch(/\b2 pass\b/)
    expect(ran.stderr).toMatch(/\b0 fail\b/)
  }, 240_000)

  it('fails on a block that does not typecheck, naming its line', () => {
    const broken = [
      '```ts file=spore/src/index.ts',
      "import type { EnzymeModule } from '@mycelo/septum'",
      'export default { create: () => ({ handlers: { async a(_i, ctx) { await ctx.reply({ txt: 1 }) } } }) } satisfies EnzymeModule',
      '```',
    ].join('\n')
    const { paths, result } = typecheck('broken', broken)
    expect(result.status).not.toBe(0)
    expect(located(result.stdout, paths)).toContain('spore/src/index.ts(2,')
    expect(located(result.stdout, paths)).toContain('[the README block at line 1]')
  }, 120_000)
})
