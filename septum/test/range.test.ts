import { describe, expect, it } from 'bun:test'
import { checkRange, septumIncompatibility } from '../src/index.ts'
import { type SemverRange, satisfiesRange } from '../src/range/index.ts'
import { SEPTUM_VERSION } from '../src/version.ts'

/** Each range with versions it must admit and versions it must refuse. */
const FORMS: readonly [range: string, admits: readonly string[], refuses: readonly string[]][] = [
  ['1.2.3', ['1.2.3'], ['1.2.4', '1.2.2', '1.2.3-beta']],
  ['=1.2.3', ['1.2.3'], ['1.2.4']],
  ['v1.2.3', ['1.2.3'], ['1.2.4']],
  ['1.2', ['1.2.0', '1.2.9'], ['1.3.0', '1.1.9']],
  ['1', ['1.0.0', '1.9.9'], ['2.0.0', '0.9.9']],
  ['^1.2.3', ['1.2.3', '1.9.0'], ['1.2.2', '2.0.0', '2.0.0-alpha']],
  ['^1.2', ['1.2.0', '1.99.0'], ['1.1.9', '2.0.0']],
  ['^1', ['1.0.0', '1.5.5'], ['0.9.9', '2.0.0']],
  ['^0.10', ['0.10.0', '0.10.5'], ['0.9.9', '0.11.0', '1.0.0']],
  ['^0.10.2', ['0.10.2', '0.10.9'], ['0.10.1', '0.11.0']],
  ['^0.0.3', ['0.0.3'], ['0.0.2', '0.0.4', '0.1.0']],
  ['^0.0', ['0.0.0', '0.0.9'], ['0.1.0']],
  ['^ 1.2', ['1.2.0'], ['2.0.0']],
  ['~1.2.3', ['1.2.3', '1.2.9'], ['1.3.0', '1.2.2']],
  ['~1.2', ['1.2.0', '1.2.9'], ['1.3.0']],
  ['~1', ['1.0.0', '1.9.0'], ['2.0.0']],
  ['~>1.2', ['1.2.5'], ['1.3.0']],
  ['>1.2.3', ['1.2.4', '2.0.0'], ['1.2.3']],
  ['>=1.2.3', ['1.2.3', '9.0.0'], ['1.2.2']],
  ['<1.2.3', ['1.2.2', '0.0.0'], ['1.2.3', '1.2.3-beta']],
  ['<=1.2.3', ['1.2.3'], ['1.2.4']],
  ['>=0.10', ['0.10.0', '3.0.0'], ['0.9.9']],
  ['<1.2', ['1.1.9'], ['1.2.0', '1.2.0-beta']],
  ['<=1.2', ['1.2.9'], ['1.3.0']],
  ['>1.2', ['1.3.0'], ['1.2.9']],
  ['>1', ['2.0.0'], ['1.9.9']],
  ['>= 1.2.3', ['1.2.3'], ['1.2.2']],
  ['1.x', ['1.0.0', '1.9.9'], ['2.0.0', '0.9.0']],
  ['1.2.x', ['1.2.0', '1.2.7'], ['1.3.0']],
  ['1.X', ['1.4.0'], ['2.0.0']],
  ['1.*', ['1.4.0'], ['2.0.0']],
  ['1.x.x', ['1.4.0'], ['2.0.0']],
  ['>1.x', ['2.0.0'], ['1.9.9']],
  ['>=0.9 <0.12', ['0.9.0', '0.11.9'], ['0.8.9', '0.12.0']],
  ['>1.0.0 <=1.5.0', ['1.0.1', '1.5.0'], ['1.0.0', '1.5.1']],
  ['1.2.3 - 2.3.4', ['1.2.3', '2.3.4'], ['1.2.2', '2.3.5']],
  ['1.2 - 2.3', ['1.2.0', '2.3.9'], ['1.1.9', '2.4.0']],
  ['1 - 2', ['1.0.0', '2.9.9'], ['3.0.0']],
  ['^0.10 || ^1.0', ['0.10.3', '1.4.0'], ['0.11.0', '2.0.0']],
  ['1.2.3 || >=2.0.0 <2.1.0 || 3.x', ['1.2.3', '2.0.5', '3.3.3'], ['1.2.4', '2.1.0', '4.0.0']],
  ['^1.2.3-beta.2', ['1.2.3-beta.2', '1.2.3-beta.10', '1.2.3', '1.3.0'], ['1.2.3-beta.1', '1.3.0-rc.1']],
  ['1.2.3-alpha - 1.2.3', ['1.2.3-alpha', '1.2.3-rc', '1.2.3'], ['1.2.2', '1.2.4']],
]

describe('satisfiesRange', () => {
  for (const [range, admitted, refused] of FORMS) {
    it(`"${range}" admits ${admitted.join(', ')} and refuses ${refused.join(', ')}`, () => {
      expect(admitted.filter((version) => !satisfiesRange(version, range))).toEqual([])
      expect(refused.filter((version) => satisfiesRange(version, range))).toEqual([])
      expect(checkRange(range).ok).toBe(true)
    })
  }

  it('accepts a range checkRange already parsed', () => {
    const checked = checkRange('^0.10')
    if (!checked.ok) throw new Error(checked.message)
    const range: SemverRange = checked.range
    expect(satisfiesRange('0.10.5', range)).toBe(true)
    expect(satisfiesRange('0.11.0', range)).toBe(false)
  })

  it('throws a RangeError naming an unparseable range text', () => {
    expect(() => satisfiesRange('1.0.0', 'latest')).toThrow(RangeError)
    expect(() => satisfiesRange('1.0.0', 'latest')).toThrow('septum range "latest" cannot be parsed')
  })

  it('throws a RangeError naming a version that is not major.minor.patch', () => {
    expect(() => satisfiesRange('1.2', '^1.0')).toThrow(RangeError)
    expect(() => satisfiesRange('1.2', '^1.0')).toThrow('cannot compare version "1.2"')
  })

  it('still matches a range too wide to be a septum range', () => {
    expect(satisfiesRange('5.0.0', '*')).toBe(true)
    expect(satisfiesRange('5.0.0-beta', '*')).toBe(false)
  })
})

const advice = `write a caret range such as ^${SEPTUM_VERSION.split('.').slice(0, 2).join('.')}`
const HYPHEN =
  'a hyphen range is two versions around a spaced dash, such as "1.2.3 - 2.3.4", and nothing else'
const EMPTY_SIDE = 'a side of "||" is empty; each side needs a version or comparator'

/** Each unparseable range and the part of its message that says what is wrong with it. */
const UNPARSEABLE: readonly [range: string, reason: string][] = [
  ['latest', '"latest" is not a version, a comparator or an x-range'],
  ['garbage >=1.0', '"garbage" is not a version, a comparator or an x-range'],
  ['1.2.3.4', '"1.2.3.4" has more than three numbers, where a version is major.minor.patch'],
  ['^0.10.', '"0.10." ends with a dot where a number belongs'],
  ['1..2', '"1..2" has two dots with no number between them'],
  ['>=x', '">=" needs a version number after it, not the wildcard "x"'],
  ['^*', '"^" needs a version number after it, not the wildcard "*"'],
  ['||', EMPTY_SIDE],
  ['1.0 ||', EMPTY_SIDE],
  ['|| ^1.0', EMPTY_SIDE],
  ['', 'the range is empty'],
  ['   ', 'the range is empty'],
  ['>=', '">=" is not followed by a version'],
  ['01.2.3', '"01" in "01.2.3" has a leading zero'],
  ['1.2b', '"2b" in "1.2b" is neither a number nor a wildcard (x, X or *)'],
  ['1.x.3', '"1.x.3" has a number after a wildcard'],
  ['99999999999999999', '"99999999999999999" in "99999999999999999" is too large a number'],
  ['1.2-beta', '"1.2-beta" carries a prerelease or build but is not a full major.minor.patch version'],
  ['1.2.3-', '"1.2.3-" has an empty or malformed prerelease identifier; use letters, digits and hyphens'],
  ['1.2.3+', '"1.2.3+" has an empty or malformed build identifier; use letters, digits and hyphens'],
  ['1.2.3-01', 'prerelease identifier "01" in "1.2.3-01" has a leading zero'],
  ['1 - 2 - 3', HYPHEN],
  ['>=1 - 2', HYPHEN],
  ['1.2.3 -', HYPHEN],
]

describe('checkRange', () => {
  it('accepts a caret range and hands back the parsed range', () => {
    const checked = checkRange('^1.0')
    expect(checked.ok).toBe(true)
    if (checked.ok) expect(satisfiesRange('1.9.0', checked.range)).toBe(true)
  })

  for (const [range, reason] of UNPARSEABLE) {
    it(`refuses ${JSON.stringify(range)} as unparseable, saying why`, () => {
      expect(checkRange(range)).toEqual({
        ok: false,
        problem: 'unparseable',
        message: `septum range ${JSON.stringify(range)} cannot be parsed: ${reason}; ${advice}`,
      })
    })
  }

  for (const range of ['*', 'x', 'X', 'x || x', '>=0.0.1', '>=0', '1.2.3 || >=0.0.0', '<99999.0.1 >0.0.0']) {
    it(`refuses "${range}" as too wide`, () => {
      expect(checkRange(range)).toEqual({
        ok: false,
        problem: 'too-wide',
        message:
          `septum range "${range}" is too wide: it admits both 0.0.1 and 99999.0.0, ` +
          `so it cannot tell one septum from another; ${advice}`,
      })
    })
  }

  it('accepts a wide range that misses one of the probes', () => {
    expect(checkRange('>=0.0.2').ok).toBe(true)
    expect(checkRange('<99999.0.0').ok).toBe(true)
    expect(checkRange('>=1.0').ok).toBe(true)
  })
})

describe('septumIncompatibility', () => {
  it('runs against the real septum version 1.1.0', () => {
    expect(SEPTUM_VERSION).toBe('1.1.0')
  })

  it('finds nothing wrong with ^1.0', () => {
    expect(septumIncompatibility('^1.0')).toBeUndefined()
  })

  it('says ^0.10 excludes the running septum', () => {
    expect(septumIncompatibility('^0.10')).toBe(
      `septum range "^0.10" excludes septum ${SEPTUM_VERSION}, the version the core is running; ${advice}`,
    )
  })

  it('passes on the unparseable message for latest', () => {
    expect(septumIncompatibility('latest')).toBe(messageOf('latest'))
    expect(septumIncompatibility('latest')).toContain('"latest" cannot be parsed')
  })

  it('passes on the too-wide message for *', () => {
    expect(septumIncompatibility('*')).toBe(messageOf('*'))
    expect(septumIncompatibility('*')).toContain('"*" is too wide')
  })

  it('judges against an overridden septum version', () => {
    expect(septumIncompatibility('^0.10', '0.10.7')).toBeUndefined()
    expect(septumIncompatibility('^1.0', '0.10.7')).toBe(
      'septum range "^1.0" excludes septum 0.10.7, the version the core is running; ' +
        'write a caret range such as ^0.10',
    )
    expect(septumIncompatibility('>=0.9 <0.12', '0.11.0')).toBeUndefined()
    expect(septumIncompatibility('>=0.9 <0.12', '0.12.0')).toContain('excludes septum 0.12.0')
  })
})

function messageOf(range: string): string {
  const checked = checkRange(range)
  if (checked.ok) throw new Error(`expected "${range}" to be refused`)
  return checked.message
}
