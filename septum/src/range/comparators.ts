import type { PartialVersion, Version } from './version.ts'

export type Operator = '<' | '<=' | '>' | '>=' | '='

/** One plain bound; every caret, tilde, x-range and hyphen form expands to a few of these. */
export interface Comparator {
  readonly operator: Operator
  readonly version: Version
}

/** The operators a range may write before a version; `~>` is tilde's other spelling. */
export type Prefix = Operator | '^' | '~' | '~>' | ''

const version = (
  major: number,
  minor: number,
  patch: number,
  prerelease: readonly string[] = [],
): Version => ({
  major,
  minor,
  patch,
  prerelease,
})

// An exclusive upper bound carries `-0`, the lowest prerelease, so `<1.2` also refuses 1.2.0-beta.
const below = (major: number, minor: number, patch: number): Comparator => ({
  operator: '<',
  version: version(major, minor, patch, ['0']),
})
const atLeast = (major: number, minor = 0, patch = 0, prerelease: readonly string[] = []): Comparator => ({
  operator: '>=',
  version: version(major, minor, patch, prerelease),
})

/**
 * Expands one written comparator into plain ones, the way node-semver does. An empty list admits
 * every release. The caller has already refused a prefixed wildcard major such as `>=x`.
 */
export function expandComparator(prefix: Prefix, partial: PartialVersion): readonly Comparator[] {
  const { major, minor, patch, prerelease } = partial
  if (major === null) return []
  if (minor !== null && patch !== null) return expandExact(prefix, version(major, minor, patch, prerelease))
  switch (prefix) {
    case '>':
      return [minor === null ? atLeast(major + 1) : atLeast(major, minor + 1)]
    case '>=':
      return [atLeast(major, minor ?? 0)]
    case '<':
      return [minor === null ? below(major, 0, 0) : below(major, minor, 0)]
    case '<=':
      return [minor === null ? below(major + 1, 0, 0) : below(major, minor + 1, 0)]
    case '^':
      if (minor === null) return [atLeast(major), below(major + 1, 0, 0)]
      return [atLeast(major, minor), major === 0 ? below(0, minor + 1, 0) : below(major + 1, 0, 0)]
    default:
      // '', '=', '~' and '~>' all mean "anything within what was written"
      return minor === null
        ? [atLeast(major), below(major + 1, 0, 0)]
        : [atLeast(major, minor), below(major, minor + 1, 0)]
  }
}

function expandExact(prefix: Prefix, exact: Version): readonly Comparator[] {
  const { major, minor, patch, prerelease } = exact
  switch (prefix) {
    case '':
      return [{ operator: '=', version: exact }]
    case '^': {
      const upper =
        major > 0 ? below(major + 1, 0, 0) : minor > 0 ? below(0, minor + 1, 0) : below(0, 0, patch + 1)
      return [atLeast(major, minor, patch, prerelease), upper]
    }
    case '~':
    case '~>':
      return [atLeast(major, minor, patch, prerelease), below(major, minor + 1, 0)]
    default:
      return [{ operator: prefix, version: exact }]
  }
}

/** A hyphen range: inclusive at both ends, a partial upper end admitting everything it names. */
export function expandHyphen(from: PartialVersion, to: PartialVersion): readonly Comparator[] {
  const lower = from.major === null ? [] : expandComparator('>=', from)
  const upper = to.major === null ? [] : expandComparator('<=', to)
  return [...lower, ...upper]
}
