/** A role pattern: `*`, `plugin.*` or `plugin.command`. */
const PATTERN = /^(\*|[a-z0-9][a-z0-9-]*\.(\*|[a-z0-9][a-z0-9-]*))$/

export function isRolePattern(text: string): boolean {
  return PATTERN.test(text)
}

/** Whether a qualified command (`plugin.command`) is covered by any of the patterns. */
export function patternsAllow(patterns: Iterable<string>, plugin: string, command: string): boolean {
  for (const pattern of patterns) {
    if (pattern === '*' || pattern === `${plugin}.*` || pattern === `${plugin}.${command}`) return true
  }
  return false
}
