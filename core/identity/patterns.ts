/** A role pattern: `*`, `plugin.*` or `plugin.command`. */
const PATTERN = /^(\*|[a-z0-9][a-z0-9-]*\.(\*|[a-z0-9][a-z0-9-]*))$/

export function isRolePattern(text: string): boolean {
  return PATTERN.test(text)
}

/** A command as authorisation reads it: the two patterns besides `*` that would cover it. */
export interface Guarded {
  /** `plugin.*` */
  readonly wildcard: string
  /** `plugin.command` */
  readonly qualified: string
}

export function guardOf(plugin: string, command: string): Guarded {
  return { wildcard: `${plugin}.*`, qualified: `${plugin}.${command}` }
}

/** Whether a command is covered by any of the patterns: `*`, its plugin's `plugin.*`, or itself. */
export function patternsAllow(patterns: ReadonlySet<string>, command: Guarded): boolean {
  return patterns.has('*') || patterns.has(command.wildcard) || patterns.has(command.qualified)
}
