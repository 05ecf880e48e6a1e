// The command-line companion: `bun run mycelo <command>`, for an operator at the machine, working
// while the bot is stopped. Exit codes: 0 done, 1 refused, 2 not understood.
import { writeSync } from 'node:fs'
import { coreCatalogues, coreText } from '../boot/catalogues.ts'
import { guardProcessEnd, type ProcessEnd } from '../boot/exit-guard.ts'
import { faultParts, recordFault } from '../boot/fault-log.ts'
import { createLogging } from '../boot/log.ts'
import { actingAs } from '../mycelium/actor.ts'
import { parseArguments } from './arguments.ts'
import { AUTHORING } from './authoring.ts'
import { RUNS } from './commands.ts'
import { helpText } from './help.ts'
import { OPERATIONS } from './operations.ts'
import { openRuntime } from './runtime.ts'
import { status } from './status.ts'

const STDOUT = 1
const STDERR = 2
const print = (fd: number, text: string) => writeSync(fd, text.endsWith('\n') ? text : `${text}\n`)

const catalogs = coreCatalogues().core
const text = (locale: string) => coreText(catalogs, locale)

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseArguments(argv)
  if (!parsed.ok) {
    print(STDERR, text('en')(parsed.key, parsed.params))
    return 2
  }
  if (parsed.help) {
    print(STDOUT, helpText(text('en')))
    return 0
  }
  const { command, args } = parsed
  // Standard output is the answer; the core's own logging, warnings and worse, goes aside.
  const logging = createLogging({ level: process.env.MYCELO_LOG_LEVEL ?? 'warn', fd: STDERR })
  // Germination imports spores' modules here too: none of them may end the companion.
  end = guardProcessEnd(logging.logger)
  if (command.name === 'status') {
    const answer = await status({ logging, text })
    print(answer.code === 0 ? STDOUT : STDERR, answer.text)
    return answer.code
  }
  const authoring = AUTHORING[command.name]
  if (authoring !== undefined) {
    const answer = await authoring({ env: process.env, logging }, args)
    if (answer.text !== '') print(answer.code === 0 ? STDOUT : STDERR, answer.text)
    return answer.code
  }
  const operation = OPERATIONS[command.name]
  if (operation !== undefined) {
    const answer = await actingAs({ kind: 'operator', surface: 'cli' }, () =>
      operation({ env: process.env, logger: logging.logger }, args),
    )
    print(answer.code === 0 ? STDOUT : STDERR, answer.text)
    return answer.code
  }
  const opened = await openRuntime({
    write: command.writes(args),
    logger: logging.logger,
    env: process.env,
    held: (reason, config) => text(config.defaultLocale)('cli.held', { reason }),
  })
  if (!opened.ok) {
    print(STDERR, opened.text)
    return 1
  }
  const cli = opened.value
  try {
    if (cli.refusal !== undefined) {
      print(STDERR, text(cli.config.defaultLocale)('cli.germinationRefused', { reason: cli.refusal }))
    }
    const run = RUNS[command.name]!
    const answer = await actingAs({ kind: 'operator', surface: 'cli' }, () => run(cli, args))
    print(answer.code === 0 ? STDOUT : STDERR, answer.text)
    return answer.code
  } finally {
    cli.close()
  }
}

/** A fault, not a refusal: a sentence and where it is written whole; the stack here only with --debug. */
function fault(error: unknown, debug: boolean): number {
  const file = recordFault(error, { env: process.env, surface: 'cli' })
  const reason = faultParts(error).summary
  const say = text('en')
  print(STDERR, file === undefined ? say('cli.faultNoLog', { reason }) : say('cli.fault', { reason, file }))
  if (debug) print(STDERR, faultParts(error).detail)
  return 1
}

let end: ProcessEnd = { exit: (code) => process.exit(code) }
// --debug is the companion's, not a command's: taken out wherever it was written.
const argv = process.argv.slice(2)
const debug = argv.includes('--debug')
const code = await main(argv.filter((word) => word !== '--debug')).catch((error: unknown) =>
  fault(error, debug),
)
end.exit(code)
