// `bun run mycelo new` for each kind, written outside the checkout, each installed from its own
// package.json (the packed septum's tarball in place of the registry's), then its own scripts: its
// tests (conformance kit and test bot) on Bun, and compiled by its own tsc, on Node.
import { afterAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { packSeptum, run, said } from '../../../septum/test/support/packed-septum.ts'

const CHECKOUT = join(import.meta.dir, '..', '..', '..')
const SPORES = {
  hypha: 'loop-chat',
  rhiza: 'status-page',
  enzyme: 'hello-world',
  inhibitor: 'block-list',
} as const
const written = mkdtempSync(join(tmpdir(), 'mycelo-new-'))
const elsewhere = mkdtempSync(join(tmpdir(), 'mycelo-new-installed-'))
afterAll(() => {
  rmSync(written, { recursive: true, force: true })
  rmSync(elsewhere, { recursive: true, force: true })
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

  it('each installs its own package.json with the packed septum, and passes its tests and the kit on Bun and Node', () => {
    const tarball = packSeptum()
    for (const name of Object.values(SPORES)) {
      // As its README says: npm install (the septum from the tarball until it is published), then its scripts.
      const spore = join(elsewhere, name)
      cpSync(join(written, name), spore, { recursive: true })
      const install = run(
        'npm',
        ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
        spore,
      )
      expect(install.status, `${name}: npm install\n${said(install)}`).toBe(0)
      const manifest = JSON.parse(readFileSync(join(spore, 'package.json'), 'utf8'))
      expect(manifest.dependencies['@mycelo/septum']).toEndWith(`/${basename(tarball)}`)
      expect(Object.keys(manifest.devDependencies).sort()).toEqual(['@types/node', 'typescript'])
      const bun = run('npm', ['test'], spore)
      expect(bun.status, `${name} on Bun:\n${said(bun)}`).toBe(0)
      expect(bun.stderr).toMatch(/\b0 fail\b/)
      // Its own TypeScript, from its own devDependencies, compiles it against the installed declarations.
      const node = run('npm', ['run', 'test:node'], spore)
      expect(node.status, `${name} on Node:\n${said(node)}`).toBe(0)
      expect(node.stdout).toMatch(/# fail 0\b/)
      expect(node.stdout).toMatch(/# pass [1-9]/)
    }
  }, 600_000)
})
