/** A version with every number known. Prerelease identifiers stay text: numeric ones compare by value. */
export interface Version {
  readonly major: number
  readonly minor: number
  readonly patch: number
  readonly prerelease: readonly string[]
}

/** A version as a range writes it: a missing or wildcard (x, X, *) number is null. */
export interface PartialVersion {
  readonly major: number | null
  readonly minor: number | null
  readonly patch: number | null
  readonly prerelease: readonly string[]
}

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string }

const WILDCARDS = new Set(['x', 'X', '*'])
const DIGITS = /^\d+$/
const IDENTIFIER = /^[0-9A-Za-z-]+$/

const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason })

/** Reads `1`, `1.2`, `1.x`, `1.2.3-beta.1+build` or `*`, with an optional leading `v`; build metadata is dropped. */
export function parsePartialVersion(word: string): Parsed<PartialVersion> {
  const body = word.startsWith('v') ? word.slice(1) : word
  const first = body[0]
  if (first === undefined || !(/\d/.test(first) || WILDCARDS.has(first))) {
    return refuse(`"${word}" is not a version, a comparator or an x-range`)
  }
  const tail = body.search(/[-+]/)
  const core = tail === -1 ? body : body.slice(0, tail)
  const parts = core.split('.')
  if (parts.length > 3) {
    return refuse(`"${word}" has more than three numbers, where a version is major.minor.patch`)
  }
  if (core.endsWith('.')) return refuse(`"${word}" ends with a dot where a number belongs`)
  const numbers: (number | null)[] = []
  for (const part of parts) {
    const number = readNumber(part, word)
    if (!number.ok) return number
    if (number.value !== null && numbers.includes(null)) {
      return refuse(`"${word}" has a number after a wildcard`)
    }
    numbers.push(number.value)
  }
  const [major = null, minor = null, patch = null] = numbers
  const extras = tail === -1 ? { ok: true as const, value: [] } : readPrerelease(body.slice(tail), word)
  if (!extras.ok) return extras
  if (tail !== -1 && (parts.length < 3 || patch === null)) {
    return refuse(`"${word}" carries a prerelease or build but is not a full major.minor.patch version`)
  }
  return { ok: true, value: { major, minor, patch, prerelease: extras.value } }
}

/** Reads a concrete version such as `1.2.3` or `1.2.3-rc.1`. */
export function parseVersion(text: string): Parsed<Version> {
  const partial = parsePartialVersion(text.trim())
  if (!partial.ok) return partial
  const { major, minor, patch, prerelease } = partial.value
  if (major === null || minor === null || patch === null) {
    return refuse(`"${text}" is not a full major.minor.patch version`)
  }
  return { ok: true, value: { major, minor, patch, prerelease } }
}

function readNumber(part: string, word: string): Parsed<number | null> {
  if (part === '') return refuse(`"${word}" has two dots with no number between them`)
  if (WILDCARDS.has(part)) return { ok: true, value: null }
  if (!DIGITS.test(part))
    return refuse(`"${part}" in "${word}" is neither a number nor a wildcard (x, X or *)`)
  if (part.length > 1 && part.startsWith('0')) return refuse(`"${part}" in "${word}" has a leading zero`)
  const value = Number(part)
  if (value > Number.MAX_SAFE_INTEGER) return refuse(`"${part}" in "${word}" is too large a number`)
  return { ok: true, value }
}

/** `tail` starts at the `-` of a prerelease or the `+` of build metadata. */
function readPrerelease(tail: string, word: string): Parsed<readonly string[]> {
  const plus = tail.indexOf('+')
  const prerelease = tail.startsWith('-') ? (plus === -1 ? tail.slice(1) : tail.slice(1, plus)) : undefined
  const build = plus === -1 ? undefined : tail.slice(plus + 1)
  for (const [label, text] of [
    ['prerelease', prerelease],
    ['build', build],
  ] as const) {
    if (text === undefined) continue
    for (const identifier of text.split('.')) {
      if (!IDENTIFIER.test(identifier)) {
        return refuse(
          `"${word}" has an empty or malformed ${label} identifier; use letters, digits and hyphens`,
        )
      }
      if (
        label === 'prerelease' &&
        DIGITS.test(identifier) &&
        identifier.length > 1 &&
        identifier[0] === '0'
      ) {
        return refuse(`prerelease identifier "${identifier}" in "${word}" has a leading zero`)
      }
    }
  }
  return { ok: true, value: prerelease === undefined ? [] : prerelease.split('.') }
}

/** Semver precedence: numbers first, then a release outranks any of its prereleases. */
export function compareVersions(a: Version, b: Version): number {
  const core = a.major - b.major || a.minor - b.minor || a.patch - b.patch
  if (core !== 0) return Math.sign(core)
  if (a.prerelease.length === 0) return b.prerelease.length === 0 ? 0 : 1
  if (b.prerelease.length === 0) return -1
  const length = Math.max(a.prerelease.length, b.prerelease.length)
  for (let i = 0; i < length; i++) {
    const left = a.prerelease[i]
    const right = b.prerelease[i]
    if (left === undefined) return -1
    if (right === undefined) return 1
    const order = compareIdentifiers(left, right)
    if (order !== 0) return order
  }
  return 0
}

function compareIdentifiers(a: string, b: string): number {
  const aNumeric = DIGITS.test(a)
  const bNumeric = DIGITS.test(b)
  if (aNumeric && bNumeric) return Math.sign(a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0)
  if (aNumeric) return -1
  if (bNumeric) return 1
  return a < b ? -1 : a > b ? 1 : 0
}
