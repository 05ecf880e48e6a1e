// The entry point of the executable `bun run build` compiles: one file that is both the bot
// (`mycelo`, `mycelo --check --json`) and its command-line companion (`mycelo status`,
// `mycelo install official reminders`), and that starts its own first-start probe.
import { EXECUTABLE_RUNS } from './shipped.ts'

const [first] = process.argv.slice(2)
if (process.env[EXECUTABLE_RUNS] === 'probe') await import('../germination/probe-main.ts')
// Options alone (or nothing) are the bot's; a word first is a command of the companion.
else if (first === undefined || first.startsWith('-')) await import('./main.ts')
else await import('../cli/main.ts')
