// The package as an author outside the checkout installs it: `npm pack` (prepack builds dist/),
// the tarball installed by npm and by Bun into projects in the system's temp folder, and a spore's
// own tests run there under Node (compiled by tsc against the installed declarations) and Bun.
import { afterAll, describe, expect, it } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type AuthorProject, authorProject, packSeptum, run, said, TSC } from './support/packed-septum.ts'

const GREETER = join(import.meta.dir, 'fixtures', 'packaged', 'greeter')
const SPORE_DEPENDENCIES = { zod: '4.6.7' }
const projects: AuthorProject[] = []
afterAll(() => {
  for (const project of projects) project.remove()
}, 60_000)

function installed(installer: 'npm' | 'bun'): AuthorProject {
  const project = authorProject({
    installer,
    spores: [GREETER],
    dependencies: SPORE_DEPENDENCIES,
    devDependencies: { '@types/node': '26.6.7' },
  })
  projects.push(project)
  return project
}

const IMPORT_BOTH = `
  const m = await import('@mycelo/septum')
  const k = await import('@mycelo/septum/conformance')
  console.log(JSON.stringify({ version: m.SEPTUM_VERSION, checks: typeof k.enzymeChecks,
    resolved: import.meta.resolve('@mycelo/septum') }))`

describe('the packed @mycelo/septum', () => {
  it('carries dist/ with JavaScript and declarations for every entry point', () => {
    const listing = spawnSync('tar', ['tzf', packSeptum()], { encoding: 'utf8' }).stdout.split('\n')
    for (const entry of ['index', 'conformance/index', 'testing/index']) {
      expect(listing).toContain(`package/dist/${entry}.js`)
      expect(listing).toContain(`package/dist/${entry}.d.ts`)
    }
    expect(listing.filter((file) => file.includes('/test/'))).toEqual([])
  }, 120_000)

  it('installs with npm, and a spore typechecks and passes its tests on Node and on Bun', () => {
    const project = installed('npm')
    const onNode = run('node', ['--input-type=module', '-e', IMPORT_BOTH], project.dir)
    expect(onNode.status, said(onNode)).toBe(0)
    const imported = JSON.parse(onNode.stdout)
    expect(imported.checks).toBe('function')
    expect(imported.resolved).toEndWith('/node_modules/@mycelo/septum/dist/index.js')

    const spore = join(project.dir, 'greeter')
    const compiled = run(TSC, ['-p', 'tsconfig.json'], spore)
    expect(compiled.status, said(compiled)).toBe(0)
    const node = run('node', ['--test', 'build/test/'], spore)
    expect(node.status, said(node)).toBe(0)
    expect(node.stdout).toMatch(/# pass 2\b/)
    const bun = run(process.execPath, ['test', './test/'], spore)
    expect(bun.status, said(bun)).toBe(0)
    expect(bun.stderr).toMatch(/\b2 pass\b/)
  }, 180_000)

  it('gives a reader real declarations: a wrong type is an error', () => {
    const project = projects[0] ?? installed('npm')
    const spore = join(project.dir, 'greeter')
    writeFileSync(
      join(spore, 'src', 'wrong.ts'),
      "import { SEPTUM_VERSION } from '@mycelo/septum'\nexport const major: number = SEPTUM_VERSION\n",
    )
    const compiled = run(TSC, ['-p', 'tsconfig.json', '--noEmit'], spore)
    expect(compiled.status).not.toBe(0)
    expect(compiled.stdout).toContain(
      "src/wrong.ts(2,14): error TS2322: Type 'string' is not assignable to type 'number'",
    )
  }, 60_000)

  it('installs with Bun, which reads the sources, and the spore passes its tests there too', () => {
    const project = installed('bun')
    const onBun = run(process.execPath, ['-e', IMPORT_BOTH], project.dir)
    expect(onBun.status, said(onBun)).toBe(0)
    expect(JSON.parse(onBun.stdout).resolved).toEndWith('/node_modules/@mycelo/septum/src/index.ts')
    const onNode = run('node', ['--input-type=module', '-e', IMPORT_BOTH], project.dir)
    expect(onNode.status, said(onNode)).toBe(0)
    const bun = run(process.execPath, ['test', './test/'], join(project.dir, 'greeter'))
    expect(bun.status, said(bun)).toBe(0)
    expect(bun.stderr).toMatch(/\b2 pass\b/)
  }, 180_000)
})
