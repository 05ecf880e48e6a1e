// The spore author's tool: `bun run sporangium <command>`. Exit codes: 0 done, 1 refused (or an
// archive that fails verify), 2 not understood.
import { writeSync } from 'node:fs'
import { COMMANDS, parseArguments, type ToolCommand } from './arguments.ts'
import { generateKey } from './keys.ts'
import type { ToolOutcome } from './outcome.ts'
import { pack } from './pack.ts'
import { type ToolText, terminalLocale, toolText } from './text.ts'
import { verify } from './verify.ts'

const STDOUT = 1
const STDERR = 2
const print = (fd: number, text: string) => writeSync(fd, text.endsWith('\n') ? text : `${text}\n`)

interface Answer {
  readonly code: number
  readonly text: string
}

type Run = (command: ToolCommand, text: ToolText) => Promise<Answer>

const refusal = (outcome: Extract<ToolOutcome<unknown>, { ok: false }>, text: ToolText): Answer => ({
  code: 1,
  text: text(outcome.refusal.key, outcome.refusal.params),
})

const RUNS: Readonly<Record<string, Run>> = {
  async keygen({ positional }, text) {
    const path = positional[0]!
    const made = await generateKey(path)
    if (!made.ok) return refusal(made, text)
    return { code: 0, text: text('keygen.done', { path, key: made.value }) }
  },

  async pack({ positional, options }, text) {
    if (options.out === undefined)
      return { code: 2, text: text('usage.command', { synopsis: COMMANDS.pack!.synopsis }) }
    const packed = await pack({
      dir: positional[0]!,
      out: options.out,
      keyFile: options.key,
      strain: options.strain,
      name: options.name,
    })
    if (!packed.ok) return refusal(packed, text)
    const { spore, strain, archive, size, sha256, signed } = packed.value
    return {
      code: 0,
      text: text('pack.done', { spore, strain, archive, size, sha256, signed: String(signed) }),
    }
  },

  async verify({ positional }, text) {
    const checked = await verify(positional[0]!)
    if (!checked.ok) return refusal(checked, text)
    const lines = checked.value.map(({ spore, strain, problems }) =>
      problems.length === 0
        ? text('verify.holds', { spore, strain })
        : text('verify.fails', {
            spore,
            strain,
            problems: problems.map((problem) => text(problem.key, problem.params)).join('; '),
          }),
    )
    const failed = checked.value.filter((check) => check.problems.length > 0).length
    lines.push(text('verify.summary', { total: checked.value.length, failed }))
    return { code: failed === 0 ? 0 : 1, text: lines.join('\n') }
  },
}

async function main(argv: readonly string[]): Promise<number> {
  const text = toolText(terminalLocale(process.env))
  const parsed = parseArguments(argv)
  if (!parsed.ok) {
    print(STDERR, text(parsed.key, parsed.params))
    return 2
  }
  if (parsed.help) {
    print(
      STDOUT,
      text('usage.help', {
        synopses: Object.values(COMMANDS)
          .map((shape) => `  bun run sporangium ${shape.synopsis}`)
          .join('\n'),
      }),
    )
    return 0
  }
  const answer = await RUNS[parsed.command.name]!(parsed.command, text)
  print(answer.code === 0 ? STDOUT : STDERR, answer.text)
  return answer.code
}

process.exit(await main(process.argv.slice(2)))
