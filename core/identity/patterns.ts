/** A role pattern: `*`, `plugin.*` or `plugin.command`. */
const PATTERN = /^(\*|[a-z0-9][a-z0-9-]*\.(\*|[a-z0-9][a-z0-9-]*))$/

export function isRolePattern(text: string): boolean {
  return PATTERN.test(text)
}

export { type Guarded, guardOf, patternsAllow } from '@mycelo/septum'

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
