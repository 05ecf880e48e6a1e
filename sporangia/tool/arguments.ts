/** What `bun run sporangium <command>` was asked, as words and --options. */
export interface ToolCommand {
  readonly name: string
  readonly positional: readonly string[]
  readonly options: Readonly<Record<string, string>>
}

interface CommandShape {
  readonly positional: number
  readonly options: readonly string[]
  /** Its words, for --help and a usage refusal; syntax, so not translated. */
  readonly synopsis: string
}

export const COMMANDS: Readonly<Record<string, CommandShape>> = {
  keygen: { positional: 1, options: [], synopsis: 'keygen <private key file>' },
  pack: {
    positional: 1,
    options: ['out', 'key', 'strain', 'name'],
    synopsis:
      'pack <spore folder> --out <sporangium folder> [--key <private key file>] [--strain <version>] [--name <sporangium name>]',
  },
  verify: { positional: 1, options: [], synopsis: 'verify <sporangium folder>' },
}

export type ParsedArguments =
  | { readonly ok: true; readonly help: true }
  | { readonly ok: true; readonly help: false; readonly command: ToolCommand }
  | { readonly ok: false; readonly key: string; readonly params: Readonly<Record<string, string>> }

export function parseArguments(argv: readonly string[]): ParsedArguments {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help')
    return { ok: true, help: true }
  const shape = COMMANDS[name]
  if (shape === undefined) return { ok: false, key: 'usage.unknownCommand', params: { command: name } }
  const usage = { ok: false, key: 'usage.command', params: { synopsis: shape.synopsis } } as const
  const positional: string[] = []
  const options: Record<string, string> = {}
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!
    if (!word.startsWith('--')) {
      positional.push(word)
      continue
    }
    const option = word.slice(2)
    const value = rest[i + 1]
    if (!shape.options.includes(option) || value === undefined || option in options) return usage
    options[option] = value
    i++
  }
  if (positional.length !== shape.positional) return usage
  return { ok: true, help: false, command: { name, positional, options } }
}
