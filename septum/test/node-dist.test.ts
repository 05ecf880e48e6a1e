import { beforeAll, describe, expect, it } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import pkg from '../package.json' with { type: 'json' }

const septumDir = join(import.meta.dir, '..')
const repoRoot = join(septumDir, '..')

function node(args: string[]) {
  return spawnSync('node', args, { cwd: repoRoot, encoding: 'utf8' })
}

describe('the built package on Node', () => {
  beforeAll(() => {
    const build = spawnSync(process.execPath, ['run', 'build'], { cwd: septumDir, encoding: 'utf8' })
    expect(build.status, build.stderr).toBe(0)
  }, 60_000)

  it('runs on Node 20 or later', () => {
    const version = node(['--version']).stdout.trim()
    expect(Number(version.replace(/^v/, '').split('.')[0])).toBeGreaterThanOrEqual(20)
  })

  it('imports from dist/ through the export conditions', () => {
    const script = `
      const m = await import('@mycelo/septum')
      const k = await import('@mycelo/septum/conformance')
      const manifest = m.parseManifest({ kind: 'rhiza', name: 'radarr', septum: '^1.0' })
      console.log(JSON.stringify({
        version: m.SEPTUM_VERSION,
        kind: manifest.kind,
        resolved: import.meta.resolve('@mycelo/septum'),
        checks: typeof k.enzymeChecks,
        incompatible: m.septumIncompatibility('^0.10') !== undefined,
      }))`
    const run = node(['--input-type=module', '-e', script])
    expect(run.stderr).toBe('')
    const out = JSON.parse(run.stdout)
    expect(out.version).toBe(pkg.version)
    expect(out.kind).toBe('rhiza')
    expect(out.resolved).toEndWith('/septum/dist/index.js')
    expect(out.checks).toBe('function')
    expect(out.incompatible).toBe(true)
  })

  it('runs the test bot on Node, and keeps storage in SQLite where Node has it (22.5 or later)', () => {
    const script = `
      const { testBot } = await import('@mycelo/septum/testing')
      const from = ${JSON.stringify(join(septumDir, 'test', 'fixtures', 'conformance', 'respond-only'))}
      const memory = await testBot({ spore: { from } })
      const said = await memory.say('/about')
      await memory.stop()
      let sqlite
      try {
        const bot = await testBot({ spore: { from }, storage: 'sqlite' })
        sqlite = { said: await bot.say('/ping'), file: bot.storageFile !== undefined }
        await bot.stop()
      } catch (error) {
        sqlite = { refused: error.message }
      }
      console.log(JSON.stringify({ said, sqlite }))`
    const run = node(['--input-type=module', '-e', script])
    expect(run.stderr).toBe('')
    const out = JSON.parse(run.stdout)
    expect(out.said).toEqual(['A plugin that is only a manifest.'])
    const version = node(['--version']).stdout.trim().replace(/^v/, '')
    const [nodeMajor, nodeMinor] = version.split('.').map(Number) as [number, number]
    if (nodeMajor > 22 || (nodeMajor === 22 && nodeMinor >= 5))
      expect(out.sqlite).toEqual({ said: ['pong'], file: true })
    else
      expect(out.sqlite.refused).toBe(
        `a SQLite storage needs Bun or Node 22.5 or later (node:sqlite); this is Node ${version}: use storage 'memory'`,
      )
  })

  it('refuses require(): the package is ESM only', () => {
    const run = node(['-e', "require('@mycelo/septum')"])
    expect(run.status).not.toBe(0)
    expect(run.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED')
  })
})
