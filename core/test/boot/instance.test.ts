// One bot per database, with real processes: a second start refuses naming the first, and a lock
// left by a process that is gone (kill -9) does not block the next start.
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { lockPathOf } from '../../store/instance-lock.ts'
import { scratchFolder } from '../store/scratch.ts'
import { respondEnzyme } from './fixtures.ts'
import { runBoot, startBoot } from './process.ts'

const scratch = scratchFolder('boot-instance')
afterAll(() => scratch.remove())

let count = 0
function setUp(): { config: string; lock: string } {
  const folder = join(scratch.path, `case-${++count}`)
  mkdirSync(join(folder, 'spores'), { recursive: true })
  respondEnzyme(join(folder, 'spores'), 'echo')
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(config, 'spores: [spores]\ndatabase: data/mycelo.db\n')
  return { config, lock: lockPathOf(join(folder, 'data', 'mycelo.db')) }
}

describe('one bot per database', () => {
  it('refuses a second start on the same database, naming the first; a check may still run beside it', async () => {
    const { config, lock } = setUp()
    const first = startBoot(config)
    await first.waitFor('Mycelo is running')
    const held = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number; startedAt: string }
    expect(held.pid).toBe(first.child.pid)

    const second = await runBoot([], config)
    expect(second.code).toBe(1)
    expect(second.stderr).toContain('Mycelo cannot start: another Mycelo is already using the database ')
    expect(second.stderr).toContain(`process ${first.child.pid}, started at ${held.startedAt}.`)
    expect((await runBoot(['--check'], config)).code).toBe(0)

    first.child.kill('SIGTERM')
    expect(await first.exited()).toBe(0)
    expect(existsSync(lock)).toBe(false)
    const third = startBoot(config)
    await third.waitFor('Mycelo is running')
    third.child.kill('SIGTERM')
    expect(await third.exited()).toBe(0)
  })

  it('starts over the lock of a bot killed with SIGKILL', async () => {
    const { config, lock } = setUp()
    const first = startBoot(config)
    await first.waitFor('Mycelo is running')
    first.child.kill('SIGKILL')
    await first.exited()
    expect(existsSync(lock)).toBe(true)

    const next = startBoot(config)
    await next.waitFor('Mycelo is running')
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(next.child.pid)
    next.child.kill('SIGTERM')
    expect(await next.exited()).toBe(0)
  })

  it('tells a live process that took over a dead holder’s pid apart by its start time', async () => {
    const { config, lock } = setUp()
    mkdirSync(join(lock, '..'), { recursive: true })
    // This test's own process is alive, but it is not the process that wrote this lock.
    const startedAt = '2026-01-01T00:00:00.000Z'
    writeFileSync(lock, JSON.stringify({ pid: process.pid, startedAt, processStart: '1' }))
    const next = startBoot(config)
    await next.waitFor('Mycelo is running')
    next.child.kill('SIGTERM')
    expect(await next.exited()).toBe(0)

    // With no start time to compare, a live pid is taken at its word.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, startedAt }))
    const refused = await runBoot([], config)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`process ${process.pid}, started at ${startedAt}.`)
  })
})
