// How a role's command patterns cover a command: the core's authorisation and the test bot's.

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
