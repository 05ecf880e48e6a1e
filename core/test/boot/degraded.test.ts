import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { scratchFolder } from '../store/scratch.ts'
import { optionalRhiza } from './fixtures.ts'
import { startBoot } from './process.ts'

const scratch = scratchFolder('boot-degraded')
afterAll(() => scratch.remove())

describe('a boot whose germination is refused', () => {
  it('stays up with the admin page answering, says why on /readyz, and stops cleanly on SIGTERM', async () => {
    const spores = join(scratch.path, 'spores')
    mkdirSync(spores, { recursive: true })
    optionalRhiza(spores, 'alpha', 'beta')
    optionalRhiza(spores, 'beta', 'alpha')
    const config = join(scratch.path, 'mycelo.yaml')
    writeFileSync(config, 'spores: [spores]\ndatabase: data/mycelo.db\nhttp:\n  port: 0\n')
    const boot = startBoot(config)
    const printed = await boot.waitFor('Stop it with Ctrl+C.')
    expect(printed).toContain('Mycelo cannot start its spores: ')
    expect(printed).toContain('The admin page stays up at http://127.0.0.1:')
    expect(boot.child.exitCode).toBeNull()
    const url = /stays up at (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)![1]!
    const ready = await fetch(`${url}/readyz`)
    expect(ready.status).toBe(503)
    const body = (await ready.json()) as { ready: boolean; refused: string }
    expect(body.ready).toBe(false)
    expect(body.refused).toContain('alpha')
    boot.child.kill('SIGTERM')
    expect(await boot.exited()).toBe(0)
  })
})
