import { describe, expect, it } from 'bun:test'
import { checkRange, satisfiesRange } from '../src/range/index.ts'

// A seeded generator (mulberry32), so every run checks the same pairs and a failure reproduces.
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const random = seeded(0x5e97)
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!

// Small pools, so generated versions land on and beside the bounds the ranges draw.
const MAJORS = [0, 1, 2, 3]
const MINORS = [0, 1, 2, 10]
const PATCHES = [0, 1, 2, 3]
const PRERELEASES = ['alpha', 'alpha.1', 'beta.2', 'rc.10', '0', '1']
const WILDCARDS = ['x', 'X', '*']

const full = (): string => `${pick(MAJORS)}.${pick(MINORS)}.${pick(PATCHES)}`
const withPrerelease = (): string => `${full()}-${pick(PRERELEASES)}`
const minorOnly = (): string => `${pick(MAJORS)}.${pick(MINORS)}`
const majorOnly = (): string => `${pick(MAJORS)}`
const anyVersion = (): string => pick([full, full, minorOnly, majorOnly])()
const operator = (): string => pick(['>', '>=', '<', '<=', '='])
const comparator = (): string =>
  `${operator()}${pick(['', ' '])}${pick([full, minorOnly, majorOnly, xMinor])()}`
function xMinor(): string {
  return pick([`${majorOnly()}.${pick(WILDCARDS)}`, `${minorOnly()}.${pick(WILDCARDS)}`])
}

/** One generator per form the matcher supports; each produces ranges of that form. */
const FORMS: Readonly<Record<string, () => string>> = {
  exact: () => pick([full(), `v${full()}`, `=${full()}`, `= ${full()}`, `${full()}+build.7`]),
  partial: () => pick([minorOnly(), majorOnly(), `=${minorOnly()}`]),
  caret: () => `^${pick(['', ' '])}${anyVersion()}`,
  'caret on 0.x': () =>
    pick([`^0.${pick(MINORS)}`, `^0.0.${pick(PATCHES)}`, `^0.${pick(MINORS)}.${pick(PATCHES)}`]),
  tilde: () => `${pick(['~', '~>'])}${anyVersion()}`,
  comparator: comparator,
  'x-range': () => pick([xMinor(), `${majorOnly()}.${pick(WILDCARDS)}.${pick(WILDCARDS)}`, pick(WILDCARDS)]),
  'two comparators': () => `${comparator()} ${comparator()}`,
  'three comparators': () => `${comparator()} ${comparator()} ${comparator()}`,
  hyphen: () => `${anyVersion()} - ${anyVersion()}`,
  'hyphen with wildcard end': () => pick([`${anyVersion()} - ${xMinor()}`, `${xMinor()} - ${anyVersion()}`]),
  prerelease: () =>
    pick([withPrerelease(), `^${withPrerelease()}`, `~${withPrerelease()}`, `>=${withPrerelease()}`]) +
    pick(['', ` <${full()}`, ` <=${withPrerelease()}`]),
  'prerelease hyphen': () => `${pick([full, withPrerelease])()} - ${withPrerelease()}`,
  union: () => [1, 2, 3].map(() => pick(Object.values(SINGLE_FORMS))()).join(pick([' || ', '||', '  ||  '])),
}
const { union: _union, ...SINGLE_FORMS } = FORMS

const RANGES_PER_FORM = 30
const RANDOM_VERSIONS_PER_RANGE = 5
const version = (): string => (random() < 0.2 ? withPrerelease() : full())

/** Versions on and just beside the numbers a range writes, where an off-by-one or a prerelease rule shows. */
function neighbours(range: string): string[] {
  const written = [...range.matchAll(/(\d+)(?:\.(\d+))?(?:\.(\d+))?/g)].map(([, major, minor, patch]) => [
    Number(major),
    Number(minor ?? 0),
    Number(patch ?? 0),
  ])
  const [major = 0, minor = 0, patch = 0] = pick(written.length > 0 ? written : [[1, 0, 0]])
  return [
    `${major}.${minor}.${patch}`,
    `${major}.${minor}.${patch}-${pick(PRERELEASES)}`,
    `${major}.${minor + 1}.0`,
    `${major + 1}.0.0-${pick(PRERELEASES)}`,
  ]
}

const pairs: { form: string; range: string; version: string }[] = []
for (const [form, generate] of Object.entries(FORMS)) {
  for (let r = 0; r < RANGES_PER_FORM; r++) {
    const range = generate()
    const versions = [...neighbours(range), ...Array.from({ length: RANDOM_VERSIONS_PER_RANGE }, version)]
    for (const version of versions) pairs.push({ form, range, version })
  }
}

describe('satisfiesRange against Bun.semver.satisfies', () => {
  it(`covers ${pairs.length} pairs, at least 2,000, across ${Object.keys(FORMS).length} forms`, () => {
    expect(pairs.length).toBeGreaterThanOrEqual(2000)
  })

  it('parses every generated range', () => {
    const unparsed = pairs.filter(({ range }) => {
      const checked = checkRange(range)
      return !checked.ok && checked.problem === 'unparseable'
    })
    expect(unparsed.map(({ range }) => range)).toEqual([])
  })

  for (const form of Object.keys(FORMS)) {
    it(`agrees on every ${form} pair`, () => {
      const ofForm = pairs.filter((pair) => pair.form === form)
      const disagreements = ofForm
        .map(({ range, version }) => ({ range, version, ours: satisfiesRange(version, range) }))
        .filter(({ range, version, ours }) => ours !== Bun.semver.satisfies(version, range))
      expect(disagreements).toEqual([])
    })
  }

  it('sees both answers often enough that agreement means something', () => {
    const admitted = pairs.filter(({ range, version }) => satisfiesRange(version, range)).length
    expect(admitted).toBeGreaterThan(pairs.length * 0.15)
    expect(admitted).toBeLessThan(pairs.length * 0.85)
  })
})
