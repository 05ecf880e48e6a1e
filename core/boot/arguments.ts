/** What the command line asks for. */
export interface BootArguments {
  /** Germinate, print the report and exit, without starting any spore. */
  readonly check: boolean
  /** With `check`: the report, or the refusal, as JSON. */
  readonly json: boolean
  readonly help: boolean
}

export type ArgumentsParse =
  | { readonly ok: true; readonly value: BootArguments }
  | { readonly ok: false; readonly refusal: 'unknownOption'; readonly option: string }
  | { readonly ok: false; readonly refusal: 'jsonNeedsCheck' }

const FLAGS = { '--check': 'check', '--json': 'json', '--help': 'help', '-h': 'help' } as const

export function parseArguments(argv: readonly string[]): ArgumentsParse {
  const seen = { check: false, json: false, help: false }
  for (const argument of argv) {
    // `bun run start -- --check` may hand the separator through.
    if (argument === '--') continue
    const flag = FLAGS[argument as keyof typeof FLAGS]
    if (flag === undefined) return { ok: false, refusal: 'unknownOption', option: argument }
    seen[flag] = true
  }
  if (seen.json && !seen.check && !seen.help) return { ok: false, refusal: 'jsonNeedsCheck' }
  return { ok: true, value: seen }
}
