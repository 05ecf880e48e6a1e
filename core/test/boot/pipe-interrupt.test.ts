// `npm start | tee log`, then Ctrl-C: the terminal sends SIGINT to the whole process group, tee
// included, so the bot's next line meets a closed pipe. The first Ctrl-C must still stop the bot,
// cleanly (its database lock released), and leave no process of the group behind.
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { scratchFolder } from '../store/scratch.ts'
import { respondEnzyme } from './fixtures.ts'
import { ROOT } from './process.ts'

const scratch = scratchFolder('boot-pipe')
afterAll(() => scratch.remove())

/** Whether any process of the group still runs (a zombie already reaped does not count). */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0)
    return true
  } catch {
    return false
  }
}

describe('Ctrl-C through a pipe', () => {
  it('stops the bot at the first interrupt, with its reader gone', async () => {
    const folder = join(scratch.path, 'bot')
    const spores = join(folder, 'spores')
    mkdirSync(spores, { recursive: true })
    respondEnzyme(spores, 'echo')
    const config = join(folder, 'mycelo.yaml')
    writeFileSync(config, 'spores: [spores]\ndatabase: data/mycelo.db\nhttp: { enabled: false }\n')
    const log = join(folder, 'tee.log')
    // A process group of its own, as a terminal gives a pipeline: the signal goes to every member.
    const shell = Bun.spawn(['bash', '-c', `node scripts/launch.mjs start | tee '${log}' >/dev/null`], {
      cwd: ROOT,
      env: { ...process.env, MYCELO_CONFIG: config },
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'pipe',
      detached: true,
    })
    const group = shell.pid
    try {
      const deadline = Date.now() + 60_000
      while (!(existsSync(log) && readFileSync(log, 'utf8').includes('Mycelo is running'))) {
        if (shell.exitCode !== null || Date.now() > deadline)
          throw new Error(`the bot did not start:\n${await new Response(shell.stderr).text()}`)
        await Bun.sleep(50)
      }
      expect(existsSync(join(folder, 'data', 'mycelo.db.lock'))).toBe(true)

      process.kill(-group, 'SIGINT')
      const stopped = Date.now() + 20_000
      while ((shell.exitCode === null || groupAlive(group)) && Date.now() < stopped) await Bun.sleep(50)
      expect(shell.exitCode).not.toBeNull()
      expect(groupAlive(group)).toBe(false)
      // Stopped in order, not killed: the lock goes only at the end of a clean shut-down.
      expect(existsSync(join(folder, 'data', 'mycelo.db.lock'))).toBe(false)
    } finally {
      if (groupAlive(group)) process.kill(-group, 'SIGKILL')
    }
  }, 60_000)
})
