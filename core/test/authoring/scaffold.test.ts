// `bun run mycelo new` for each kind, written outside the checkout, installed against the packed
// septum, then its own tests (conformance kit and test bot) on Bun and, compiled by tsc, on Node.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type AuthorProject,
  authorProject,
  run,
  said,
  TSC,
} from '../../../septum/test/support/packed-septum.ts'

const CHECKOUT = join(import.meta.dir, '..', '..', '..')
const SPORES = {
  hypha: 'loop-chat',
  rhiza: 'status-page',
  enzyme: 'hello-world',
  inhibitor: 'block-list',
} as const
const written = mkdtempSync(join(tmpdir(), 'mycelo-new-'))
let project: AuthorProject | undefined
afterAll(() => {
  project?.remove()
  rmSync(written, { recursive: true, force: true })
}, 60_000)

const mycelo = (args: readonly string[]) => run(process.execPath, ['run', 'mycelo', ...args], CHECKOUT)

describe('bun run mycelo new', () => {
  it('writes a spore of each kind where --dir says, and refuses a taken folder, a kind or a name', () => {
    for (const [kind, name] of Object.entries(SPORES)) {
      const made = mycelo(['new', kind, name, '--dir', join(written, name)])
      expect(made.status, said(made)).toBe(0)
      expect(made.stdout).toContain(`The ${kind} ${name} is in ${join(written, name)}`)
    }
    expect(readdirSync(join(written, 'hello-world')).sort()).toEqual(
      [
        '.gitignore',
        'README.md',
        'package.json',
        'spore.yaml',
        'src',
        'test',
        'translations',
        'tsconfig.json',
      ].sort(),
    )
    const taken = mycelo(['new', 'enzyme', 'hello-world', '--dir', join(written, 'hello-world')])
    expect(taken.status).toBe(1)
    expect(taken.stderr).toContain('already holds files')
    expect(mycelo(['new', 'plugin', 'x']).stderr).toContain('There is no kind of spore called plugin')
    expect(mycelo(['new', 'enzyme', 'Hello']).stderr).toContain('Hello cannot name a spore')
  }, 60_000)

  it('each passes its own tests and the kit on Bun and on Node, against the packed septum', () => {
    project = authorProject({
      installer: 'npm',
      spores: Object.values(SPORES).map((name) => join(written, name)),
      dependencies: { zod: '4.6.7' },
      devDependencies: { '@types/node': '26.6.7' },
    })
    for (const name of Object.values(SPORES)) {
      const spore = join(project.dir, name)
      const bun = run(process.execPath, ['test', './test/'], spore)
      expect(bun.status, `${name} on Bun:\n${said(bun)}`).toBe(0)
      expect(bun.stderr).toMatch(/\b0 fail\b/)
      const compiled = run(TSC, ['-p', 'tsconfig.json'], spore)
      expect(compiled.status, `${name} through tsc:\n${said(compiled)}`).toBe(0)
      const node = run('node', ['--test', 'build/test/'], spore)
      expect(node.status, `${name} on Node:\n${said(node)}`).toBe(0)
      expect(node.stdout).toMatch(/# fail 0\b/)
    }
  }, 240_000)
})
