import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { scratchFolder } from '../store/scratch.ts'
import { respondEnzyme } from './fixtures.ts'
import { runBun } from './process.ts'

const scratch = scratchFolder('boot-launch')
afterAll(() => scratch.remove())

describe('bun run start (scripts/launch.mjs)', () => {
  it('prints nothing but the JSON on standard output for --check --json, the install going to standard error', async () => {
    const spores = join(scratch.path, 'spores')
    mkdirSync(spores, { recursive: true })
    respondEnzyme(spores, 'echo')
    const config = join(scratch.path, 'mycelo.yaml')
    writeFileSync(config, 'spores: [spores]\ndatabase: data/mycelo.db\n')
    const { code, stdout, stderr } = await runBun(['run', 'start', '--', '--check', '--json'], {
      ...process.env,
      MYCELO_CONFIG: config,
    })
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual({
      ok: true,
      spores: [
        { name: 'echo', kind: 'enzyme', state: 'live', dir: join(spores, 'echo'), isolation: 'inline' },
      ],
    })
    // The dependencies were still checked on the way: the step ran, only its output moved.
    expect(stderr).toContain('bun install')
  })
})
