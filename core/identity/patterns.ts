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

/**
 * Whether holding `held` grants everything `wanted` grants: `*` covers all, `plugin.*` covers
 * itself and every `plugin.command`, `plugin.command` only itself. The role ceiling rests on it.
 */
export function patternCovers(held: string, wanted: string): boolean {
  if (held === '*' || held === wanted) return true
  if (!held.endsWith('.*')) return false
  const plugin = held.slice(0, -1)
  return wanted.startsWith(plugin) && wanted !== '*'
}

/** The patterns of `wanted` that none of `held` covers, in `wanted`'s order. */
export function uncoveredPatterns(held: Iterable<string>, wanted: Iterable<string>): string[] {
  const holding = [...held]
  return [...wanted].filter((pattern) => !holding.some((h) => patternCovers(h, pattern)))
}
