// `bun run build` makes one executable that is the bot and its command line, and runs spores from
// disk: built once here, then run as an operator would, in folders of its own outside the checkout
// (no Bun source, no node_modules beside it): --check --json, the CLI, the bot with a spore in a
// host answering on the console, and the agent's sandbox pool answering over /mcp.
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Finished, ROOT, runProgram, startBoot } from '../boot/process.ts'
import { connect } from '../mcp/connect.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('executable')
afterAll(() => scratch.remove())

const executable = join(scratch.path, 'bin', 'mycelo')
/** Nothing of the test run's own: the executable reads the folder it runs in, and its defaults. */
const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }

function run(cwd: string, args: readonly string[]): Promise<Finished> {
  return runProgram([executable, ...args], ENV, { cwd })
}

/** A folder holding one spore, written by the executable's own `new`: it imports septum and zod. */
async function folderWithSpore(name: string): Promise<string> {
  const folder = join(scratch.path, name)
  mkdirSync(folder, { recursive: true })
  const made = await run(folder, ['new', 'enzyme', 'greeter', '--dir', 'spores/greeter'])
  expect(made.stderr).toBe('')
  expect(made.code).toBe(0)
  return folder
}

beforeAll(async () => {
  const build = Bun.spawn(['bun', 'run', 'build', '--outfile', executable], {
    cwd: ROOT,
    env: ENV,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stderr, code] = await Promise.all([new Response(build.stderr).text(), build.exited])
  expect(stderr).toContain(`built ${executable} in `)
  expect(code).toBe(0)
}, 240_000)

describe('the executable bun run build produces', () => {
  it('answers --check --json on a folder holding a spore, with every other setting at its default', async () => {
    const folder = await folderWithSpore('check')
    const checked = await run(folder, ['--check', '--json'])
    expect(checked.code).toBe(0)
    expect(JSON.parse(checked.stdout)).toEqual({
      ok: true,
      spores: [
        {
          name: 'greeter',
          kind: 'enzyme',
          state: 'live',
          dir: join(folder, 'spores', 'greeter'),
          isolation: 'worker',
        },
      ],
    })
  }, 60_000)

  it('runs the bot: the spore answers from its host on the console, and the agent runs a program', async () => {
    const folder = await folderWithSpore('bot')
    // The checkout's own console, copied beside it: spores from disk, whatever folder they are in.
    cpSync(join(ROOT, 'spores', 'console'), join(folder, 'spores', 'console'), { recursive: true })
    writeFileSync(join(folder, 'mycelo.yaml'), 'http: { port: 0 }\n')
    const set = await run(folder, ['set', 'console', 'interactive', 'always'])
    expect(set.stdout).toBe('console interactive is stored; the bot starts with it.\n')
    // The console's operator is the owner out of the box; the key acts for them.
    const db = new Database(join(folder, 'data', 'mycelo.db'), { readonly: true })
    const owner = db
      .query<{ id: string }, []>(
        "SELECT principal_id AS id FROM channel_identities WHERE channel = 'console' AND external_id = 'owner'",
      )
      .get()!.id
    db.close()
    const created = await run(folder, ['agent-key', 'create', owner, 'desktop'])
    expect(created.code).toBe(0)
    const key = /^mycelo_ak_\S+$/m.exec(created.stdout)![0]

    const bot = startBoot(join(folder, 'mycelo.yaml'), {}, { command: [executable], cwd: folder, env: ENV })
    try {
      const report = await bot.waitFor('Mycelo is running')
      expect(report).toMatch(/ {2}greeter +commands +live +worker\n/)
      bot.child.stdin.write('/hello Ada\n')
      bot.child.stdin.flush()
      await bot.waitFor('Hello, Ada! That is the first hello.')
      // The second count comes back from the bot's database, through the host's bridge.
      bot.child.stdin.write('/hello Ada\n')
      bot.child.stdin.flush()
      await bot.waitFor('Hello, Ada! That makes 2 hellos.')

      const url = /listens on (http:\/\/127\.0\.0\.1:\d+)/.exec(report)![1]!
      const agent = await connect(new URL('/mcp', url), { key })
      try {
        const listed = await agent.execute(
          'return (await env.plugins.read.listPlugins({})).map((p) => p.name)',
        )
        expect(listed).toEqual({ ok: true, value: ['console', 'greeter'] })
      } finally {
        await agent.close()
      }
    } finally {
      bot.child.kill('SIGTERM')
      expect(await bot.exited()).toBe(0)
    }
  }, 90_000)
})
