import { SEPTUM_VERSION } from '../version.ts'
import { rangeAdmits } from './match.ts'
import { parseRange, type SemverRange } from './parse.ts'
import { compareVersions, parseVersion, type Version } from './version.ts'

export type RangeCheck =
  | { readonly ok: true; readonly range: SemverRange }
  | { readonly ok: false; readonly problem: 'unparseable' | 'too-wide'; readonly message: string }

// Two versions no real contract range should span: admitting both means the range says nothing.
const PROBE_LOW = '0.0.1'
const PROBE_HIGH = '99999.0.0'

function versionOf(text: string): Version {
  const parsed = parseVersion(text)
  if (!parsed.ok) throw new RangeError(`cannot compare version "${text}": ${parsed.reason}`)
  return parsed.value
}

/** The caret range to recommend: the one that admits the given septum and its later minors. */
function advice(septumVersion: string): string {
  const parsed = parseVersion(septumVersion)
  const example = parsed.ok ? `^${parsed.value.major}.${parsed.value.minor}` : '^1.0'
  return `write a caret range such as ${example}`
}

/** Parses and vets a septum: range. Never throws. */
export function checkRange(text: string): RangeCheck {
  const parsed = parseRange(text)
  if (!parsed.ok) {
    return {
      ok: false,
      problem: 'unparseable',
      message: `septum range "${text}" cannot be parsed: ${parsed.reason}; ${advice(SEPTUM_VERSION)}`,
    }
  }
  const range = parsed.value
  if (rangeAdmits(range, versionOf(PROBE_LOW)) && rangeAdmits(range, versionOf(PROBE_HIGH))) {
    return {
      ok: false,
      problem: 'too-wide',
      message:
        `septum range "${text}" is too wide: it admits both ${PROBE_LOW} and ${PROBE_HIGH}, ` +
        `so it cannot tell one septum from another; ${advice(SEPTUM_VERSION)}`,
    }
  }
  return { ok: true, range }
}

/**
 * Whether a version (x.y.z, optional -prerelease) satisfies a range (text or parsed). Throws RangeError
 * for an unparseable range text or version. A prerelease version matches only a range that names a
 * prerelease of the same x.y.z, as in node-semver.
 */
export function satisfiesRange(version: string, range: string | SemverRange): boolean {
  let parsed = range
  if (typeof parsed === 'string') {
    const result = parseRange(parsed)
    if (!result.ok) throw new RangeError(`septum range "${parsed}" cannot be parsed: ${result.reason}`)
    parsed = result.value
  }
  return rangeAdmits(parsed, versionOf(version))
}

/** Nothing when `range` admits the running septum; otherwise why not: unparseable, too wide, or excluding it. */
export function septumIncompatibility(
  range: string,
  septumVersion: string = SEPTUM_VERSION,
): string | undefined {
  const checked = checkRange(range)
  if (!checked.ok) return checked.message
  if (satisfiesRange(septumVersion, checked.range)) return undefined
  return (
    `septum range "${range}" excludes septum ${septumVersion}, the version the core is running; ` +
    advice(septumVersion)
  )
}

/**
 * The lowest release below `version` the range admits, or undefined when it admits none: the
 * lowest release a comparator set admits is 0.0.0, one of its lower bounds, or just above one.
 */
export function lowestAdmittedBelow(range: string, version: string): string | undefined {
  const parsed = parseRange(range)
  if (!parsed.ok) return undefined
  const ceiling = versionOf(version)
  const candidates: Version[] = [{ major: 0, minor: 0, patch: 0, prerelease: [] }]
  for (const set of parsed.value.sets)
    for (const { version: bound } of set) {
      candidates.push({ ...bound, prerelease: [] }, { ...bound, patch: bound.patch + 1, prerelease: [] })
    }
  const admitted = candidates
    .filter((candidate) => compareVersions(candidate, ceiling) < 0 && rangeAdmits(parsed.value, candidate))
    .sort(compareVersions)[0]
  return admitted === undefined ? undefined : `${admitted.major}.${admitted.minor}.${admitted.patch}`
}
