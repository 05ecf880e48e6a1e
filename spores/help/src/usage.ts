import type { CommandInfo } from '@mycelo/septum'

/**
 * The name a reader types for each command: bare, unless another listed command shares it, in
 * which case only the qualified form reaches the right one.
 */
export function typedNames(commands: readonly CommandInfo[]): ReadonlyMap<CommandInfo, string> {
  const counts = new Map<string, number>()
  for (const info of commands) counts.set(info.name, (counts.get(info.name) ?? 0) + 1)
  return new Map(
    commands.map((info) => [info, (counts.get(info.name) ?? 0) > 1 ? info.qualified : info.name]),
  )
}

/** `/add <title> [year]`: required args in angle brackets, optional ones in square brackets. */
export function usageLine(name: string, info: CommandInfo, prefix: string): string {
  const args = (info.args ?? []).map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`))
  return [`${prefix}${name}`, ...args].join(' ')
}

/** The commands a typed name designates: by qualified name, or by bare name (several when shared). */
export function matching(commands: readonly CommandInfo[], typed: string, prefix: string): CommandInfo[] {
  const word = (typed.startsWith(prefix) ? typed.slice(prefix.length) : typed).toLowerCase()
  const qualified = commands.filter((info) => info.qualified === word)
  return qualified.length > 0 ? qualified : commands.filter((info) => info.name === word)
}
