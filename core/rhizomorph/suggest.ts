import { patternsAllow } from '../identity/patterns.ts'
import type { Route } from './routes.ts'

export interface UnknownCommand {
  /** The name as typed, lower-cased by the parser. */
  readonly typed: string
  readonly routes: readonly Route[]
  /** The reader's role patterns: a command they may not run is never suggested. */
  readonly patterns: ReadonlySet<string>
  readonly prefix: string
}

/**
 * The answer to a command nobody offers, as a catalogue key and its params: with the nearest
 * command the reader may run when one is close enough to be a typo. Only the unknown-command
 * path pays for it.
 */
export function unknownCommandReply(unknown: UnknownCommand): [key: string, params: Record<string, unknown>] {
  const { typed, prefix } = unknown
  const command = `${prefix}${typed}`
  const help = `${prefix}help`
  const nearest = nearestCommand(unknown)
  if (nearest === undefined) return ['reply.unknownCommand', { command, help }]
  return ['reply.didYouMean', { command, suggestion: `${prefix}${nearest}`, help }]
}

/**
 * The name to type for the command closest to `typed`: its bare name when only one enzyme offers
 * it, else `plugin.command`. Ties go to the first in the route map's (alphabetical) order.
 */
export function nearestCommand(unknown: Omit<UnknownCommand, 'prefix'>): string | undefined {
  const { typed, routes, patterns } = unknown
  const offered = new Map<string, number>()
  for (const route of routes) offered.set(route.command.name, (offered.get(route.command.name) ?? 0) + 1)
  let best: { name: string; distance: number } | undefined
  for (const route of routes) {
    if (!patternsAllow(patterns, route)) continue
    const bare = route.command.name
    const distance = Math.min(editDistance(typed, bare), editDistance(typed, route.qualified))
    // A name as long as its distance shares nothing with the command: no typo of it.
    if (distance > tolerance(typed) || distance >= typed.length) continue
    if (best !== undefined && distance >= best.distance) continue
    best = { name: offered.get(bare) === 1 ? bare : route.qualified, distance }
  }
  return best?.name
}

/** Edits a typo may plausibly hold: one in a short name, one more per further four letters. */
function tolerance(typed: string): number {
  return 1 + Math.floor(Math.max(0, typed.length - 4) / 4)
}

/**
 * Optimal string alignment distance (Damerau-Levenshtein restricted to adjacent swaps):
 * insertions, deletions, substitutions and transpositions each count one, as typos do.
 */
export function editDistance(a: string, b: string): number {
  const x = [...a]
  const y = [...b]
  // Three rows suffice: a transposition looks two rows back.
  let before: number[] = []
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const current = [i]
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        value = Math.min(value, before[j - 2]! + 1)
      }
      current.push(value)
    }
    before = previous
    previous = current
  }
  return previous[y.length]!
}
