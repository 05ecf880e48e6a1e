import { type Comparator, expandComparator, expandHyphen, type Prefix } from './comparators.ts'
import { type Parsed, parsePartialVersion } from './version.ts'

/** A parsed range: any one of its sets admits a version when every comparator in that set does. */
export interface SemverRange {
  readonly text: string
  /** The `||` alternatives; an empty set admits every release. */
  readonly sets: readonly (readonly Comparator[])[]
}

interface Word {
  readonly prefix: Prefix
  readonly body: string
}

// Longest first, so `>=` is not read as `>` followed by a version starting with `=`.
const PREFIXES: readonly Prefix[] = ['>=', '<=', '~>', '>', '<', '=', '^', '~']
const SPACE = /\s/

const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason })

/** Parses range text without judging how wide it is. */
export function parseRange(text: string): Parsed<SemverRange> {
  if (text.trim() === '') return refuse('the range is empty')
  const sets: (readonly Comparator[])[] = []
  for (const side of text.split('||')) {
    if (side.trim() === '') return refuse('a side of "||" is empty; each side needs a version or comparator')
    const set = parseSet(side.trim())
    if (!set.ok) return set
    sets.push(set.value)
  }
  return { ok: true, value: { text, sets } }
}

function parseSet(side: string): Parsed<readonly Comparator[]> {
  const words = splitWords(side)
  if (!words.ok) return words
  const hyphens = words.value.filter((word) => word.prefix === '' && word.body === '-').length
  if (hyphens > 0) return parseHyphen(words.value)
  const comparators: Comparator[] = []
  for (const { prefix, body } of words.value) {
    const partial = parsePartialVersion(body)
    if (!partial.ok) return partial
    if (prefix !== '' && partial.value.major === null) {
      return refuse(`"${prefix}" needs a version number after it, not the wildcard "${body}"`)
    }
    comparators.push(...expandComparator(prefix, partial.value))
  }
  return { ok: true, value: comparators }
}

function parseHyphen(words: readonly Word[]): Parsed<readonly Comparator[]> {
  const [from, dash, to] = words
  const plain = words.length === 3 && dash?.body === '-' && from?.prefix === '' && to?.prefix === ''
  if (!plain || from === undefined || to === undefined) {
    return refuse(
      'a hyphen range is two versions around a spaced dash, such as "1.2.3 - 2.3.4", and nothing else',
    )
  }
  const lower = parsePartialVersion(from.body)
  if (!lower.ok) return lower
  const upper = parsePartialVersion(to.body)
  if (!upper.ok) return upper
  return { ok: true, value: expandHyphen(lower.value, upper.value) }
}

/** Splits a side on whitespace, keeping an operator with the version after it (`>= 1.2` is one word). */
function splitWords(side: string): Parsed<readonly Word[]> {
  const words: Word[] = []
  let at = 0
  while (at < side.length) {
    while (at < side.length && SPACE.test(side[at]!)) at++
    if (at >= side.length) break
    const prefix = PREFIXES.find((candidate) => side.startsWith(candidate, at)) ?? ''
    at += prefix.length
    if (prefix !== '') while (at < side.length && SPACE.test(side[at]!)) at++
    const start = at
    while (at < side.length && !SPACE.test(side[at]!)) at++
    const body = side.slice(start, at)
    if (prefix !== '' && body === '') return refuse(`"${prefix}" is not followed by a version`)
    words.push({ prefix, body })
  }
  return { ok: true, value: words }
}
