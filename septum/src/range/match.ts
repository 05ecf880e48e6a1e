import type { Comparator } from './comparators.ts'
import type { SemverRange } from './parse.ts'
import { compareVersions, type Version } from './version.ts'

function admits(comparator: Comparator, version: Version): boolean {
  const order = compareVersions(version, comparator.version)
  switch (comparator.operator) {
    case '<':
      return order < 0
    case '<=':
      return order <= 0
    case '>':
      return order > 0
    case '>=':
      return order >= 0
    case '=':
      return order === 0
  }
}

/**
 * A prerelease only matches a set that names a prerelease of the same major.minor.patch, so
 * `^1.2.3` never opts a user into 2.0.0-beta nor 1.5.0-rc; this is node-semver's rule.
 */
function setAdmits(set: readonly Comparator[], version: Version): boolean {
  if (!set.every((comparator) => admits(comparator, version))) return false
  if (version.prerelease.length === 0) return true
  return set.some(
    ({ version: bound }) =>
      bound.prerelease.length > 0 &&
      bound.major === version.major &&
      bound.minor === version.minor &&
      bound.patch === version.patch,
  )
}

export function rangeAdmits(range: SemverRange, version: Version): boolean {
  return range.sets.some((set) => setAdmits(set, version))
}
