import { agentKeyArgumentsFit } from './agent-keys.ts'
/** A command of the companion, as `bun run mycelo <name> …` takes it. */
export interface CliCommand {
  readonly name: string
  /** Its words, for --help and a usage refusal; syntax, so not translated. */
  readonly synopsis: string
  readonly min: number
  readonly max: number
  /** Whether it changes the database, and so must wait until no bot holds it. */
  writes(args: readonly string[]): boolean
}

const reads = () => false
const writes = () => true

export const COMMANDS: readonly CliCommand[] = [
  { name: 'status', synopsis: 'status', min: 0, max: 0, writes: reads },
  { name: 'enable', synopsis: 'enable <spore>', min: 1, max: 1, writes },
  { name: 'disable', synopsis: 'disable <spore>', min: 1, max: 1, writes },
  // The value may be several words: they are joined back with spaces.
  { name: 'set', synopsis: 'set <spore> <key> <value>', min: 3, max: Number.POSITIVE_INFINITY, writes },
  // The secret is read from standard input, never from the command line (shell history, ps).
  { name: 'connect', synopsis: 'connect <channel> [<address>] [<account>]', min: 1, max: 3, writes },
  { name: 'unset', synopsis: 'unset <spore> <key>', min: 2, max: 2, writes },
  { name: 'form', synopsis: 'form <spore>', min: 1, max: 1, writes: reads },
  { name: 'roles', synopsis: 'roles [<principal>]', min: 0, max: 1, writes: reads },
  { name: 'grant', synopsis: 'grant <principal> <role>', min: 2, max: 2, writes },
  { name: 'revoke', synopsis: 'revoke <principal> <role>', min: 2, max: 2, writes },
  {
    name: 'rules',
    synopsis: 'rules [list | clear <spore.command>]',
    min: 0,
    max: 2,
    writes: (args) => args[0] === 'clear',
  },
  { name: 'sources', synopsis: 'sources', min: 0, max: 0, writes: reads },
  { name: 'source-add', synopsis: 'source-add <url> <label> [<publisher key>]', min: 2, max: 3, writes },
  { name: 'source-set', synopsis: 'source-set <source> label|url|token|key <value>', min: 3, max: 3, writes },
  { name: 'source-enable', synopsis: 'source-enable <source>', min: 1, max: 1, writes },
  { name: 'source-disable', synopsis: 'source-disable <source>', min: 1, max: 1, writes },
  { name: 'source-delete', synopsis: 'source-delete <source>', min: 1, max: 1, writes },
  // Reads the source's index; a key first seen there is pinned on the copy only, so again at install.
  {
    name: 'offered',
    synopsis: 'offered <source> [<search>]',
    min: 1,
    max: Number.POSITIVE_INFINITY,
    writes: reads,
  },
  { name: 'install', synopsis: 'install <source> <spore> [<strain>]', min: 2, max: 3, writes },
  { name: 'upgrade', synopsis: 'upgrade <spore>', min: 1, max: 1, writes },
  { name: 'rollback', synopsis: 'rollback <spore>', min: 1, max: 1, writes },
  // A spore that stored data (septum 1.1) is only uninstalled once one of the two flags decides.
  { name: 'uninstall', synopsis: 'uninstall <spore> [--keep-data | --delete-data]', min: 1, max: 2, writes },
  {
    name: 'agent-key',
    synopsis:
      'agent-key create <principal> <label> | list | revoke <id> | confirm <id> client|<channel> <conversation>',
    min: 1,
    max: Number.POSITIVE_INFINITY,
    writes: (args) => args[0] !== 'list',
  },
  // Authoring (core/cli/authoring.ts) works on a spore's folder, not on the bot's database.
  {
    name: 'new',
    synopsis: 'new hypha|rhiza|enzyme|inhibitor <name> [--dir <folder>]',
    min: 2,
    max: 4,
    writes: reads,
  },
  // Runs until Ctrl-C: a bot of its own, in a temporary folder, never the operator's database.
  { name: 'dev', synopsis: 'dev <folder>', min: 1, max: 1, writes: reads },
  // Operations (core/cli/operations.ts) open what they need themselves: a backup reads beside a bot.
  { name: 'backup', synopsis: 'backup [<file>]', min: 0, max: 1, writes: reads },
  { name: 'restore', synopsis: 'restore <file> [--replace-config]', min: 1, max: 2, writes },
  { name: 'export', synopsis: 'export [<file>] [--secrets] [--data]', min: 0, max: 3, writes: reads },
  {
    name: 'import',
    synopsis: 'import <file> [--apply]',
    min: 1,
    max: 2,
    writes: (args) => args.includes('--apply'),
  },
]

export type Parsed =
  | { readonly ok: true; readonly help: true }
  | { readonly ok: true; readonly help: false; readonly command: CliCommand; readonly args: string[] }
  /** A catalogue key of `core` and its params. */
  | { readonly ok: false; readonly key: string; readonly params: Readonly<Record<string, unknown>> }

export function parseArguments(argv: readonly string[]): Parsed {
  const [name, ...args] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help')
    return { ok: true, help: true }
  const command = COMMANDS.find((candidate) => candidate.name === name)
  if (command === undefined) return { ok: false, key: 'cli.unknownCommand', params: { command: name } }
  if (!argumentsFit(command, args))
    return { ok: false, key: 'cli.usage', params: { synopsis: command.synopsis } }
  return { ok: true, help: false, command, args }
}

function argumentsFit(command: CliCommand, args: readonly string[]): boolean {
  if (args.length < command.min || args.length > command.max) return false
  if (command.name === 'agent-key') return agentKeyArgumentsFit(args)
  if (command.name === 'new') return args.length === 2 || (args.length === 4 && args[2] === '--dir')
  if (command.name === 'uninstall')
    return args.length === 1 || args[1] === '--delete-data' || args[1] === '--keep-data'
  if (command.name === 'restore')
    return args.filter((arg) => arg !== '--replace-config').length === 1 && new Set(args).size === args.length
  if (command.name !== 'rules' || args.length === 0) return true
  return (args[0] === 'list' && args.length === 1) || (args[0] === 'clear' && args.length === 2)
}
