// The tests are hermetic: a checkout holding an operator's own mycelo.yaml and data/ (here hostile:
// an unknown key, another prefix and port, a database that is not one, a broken spore), with
// MYCELO_* settings in the environment, runs the configuration's tests exactly as a clean one does.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, runBun } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('hostile-checkout')
afterAll(() => scratch.remove())

describe('a checkout with an operator’s files in it', () => {
  it('runs the configuration tests as a clean one does', async () => {
    const clone = join(scratch.path, 'clone')
    expect(Bun.spawnSync(['git', 'clone', '--quiet', '--no-hardlinks', ROOT, clone]).exitCode).toBe(0)
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'))
    writeFileSync(join(clone, 'mycelo.yaml'), 'prefix: "!"\nhttp: { port: 1 }\nnotASetting: true\n')
    mkdirSync(join(clone, 'data', 'spores', 'broken'), { recursive: true })
    writeFileSync(join(clone, 'data', 'mycelo.db'), 'not a database')
    writeFileSync(join(clone, 'data', 'spores', 'broken', 'spore.yaml'), 'kind: [')
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      MYCELO_CONFIG: join(clone, 'mycelo.yaml'),
      MYCELO_LOG_LEVEL: 'nonsense',
      MYCELO_ISOLATION: 'inline',
    }
    const ran = await runBun(['test', 'core/test/config/load.test.ts', '--timeout', '20000'], env, {
      cwd: clone,
    })
    expect(ran.stderr).toMatch(/\n\s*\d+ pass\n\s*0 fail\n/)
    expect(ran.code).toBe(0)
  }, 120_000)
})
