// A fault the companion did not expect (here: a spore written where a file stands in the way) is
// said in one sentence naming where it is written whole; the stack reaches the terminal only with
// --debug, and is always in that log.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runBun } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('cli-fault')
afterAll(() => scratch.remove())

function folder(name: string, config: string): { dir: string; env: Record<string, string | undefined> } {
  const dir = join(scratch.path, name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'mycelo.yaml'), config)
  // A file where the new spore's parent folder would be: mkdir fails with ENOTDIR, a fault.
  writeFileSync(join(dir, 'taken'), '')
  return {
    dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MYCELO_CONFIG: join(dir, 'mycelo.yaml') },
  }
}

const STACK_LINE = /^\s+at /m

describe('an unexpected fault in the command line', () => {
  it('is one sentence naming the log beside the database, the stack in that log only', async () => {
    const { dir, env } = folder('beside', 'database: data/mycelo.db\n')
    const target = join(dir, 'taken', 'greeter')
    const answer = await runBun(['core/cli/main.ts', 'new', 'enzyme', 'greeter', '--dir', target], env)
    const log = join(dir, 'data', 'faults.log')
    expect(answer.code).toBe(1)
    expect(answer.stdout).toBe('')
    expect(answer.stderr).toBe(
      `Something went wrong that Mycelo did not expect: ENOTDIR: not a directory, mkdir '${target}'. ` +
        `The details are in ${log}; run the command again with --debug to see them here.\n`,
    )
    const written = JSON.parse(readFileSync(log, 'utf8').trim().split('\n').at(-1)!) as Record<string, string>
    expect(written.msg).toBe('unexpected fault')
    expect(written.surface).toBe('cli')
    expect(written.error).toMatch(STACK_LINE)
    expect(written.error).toContain('scaffoldSpore')
  })

  it('names the log file mycelo.yaml names, and shows the stack with --debug', async () => {
    const { dir, env } = folder('named', 'log: { file: logs/bot.log }\n')
    const target = join(dir, 'taken', 'greeter')
    const answer = await runBun(
      ['core/cli/main.ts', 'new', 'enzyme', 'greeter', '--dir', target, '--debug'],
      env,
    )
    expect(answer.code).toBe(1)
    const [sentence, ...stack] = answer.stderr.trimEnd().split('\n')
    expect(sentence).toEndWith(
      `The details are in ${join(dir, 'logs', 'bot.log')}; run the command again with --debug to see them here.`,
    )
    expect(stack.join('\n')).toMatch(STACK_LINE)
    expect(readFileSync(join(dir, 'logs', 'bot.log'), 'utf8')).toContain('unexpected fault')
  })
})
