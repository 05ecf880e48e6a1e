// Seed 000's sentences against the tests: every sentence listed in seed-000.ts either names tests
// that exist, each quoting the sentence in its title, or says why it does not apply to this host.
import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SEED_000 } from './seed-000.ts'

const ROOT = join(import.meta.dir, '../../..')
const sources = new Map<string, string>()
const sourceOf = (file: string) => {
  let source = sources.get(file)
  if (source === undefined) {
    source = readFileSync(join(ROOT, file), 'utf8')
    sources.set(file, source)
  }
  return source
}

/** The titles a test file declares with it() or test(), as written (no template literals). */
function titlesIn(file: string): Set<string> {
  const titles = new Set<string>()
  for (const match of sourceOf(file).matchAll(/\b(?:it|test)\(\s*(['"])((?:(?!\1)[^\\]|\\.)*)\1/g)) {
    titles.add(match[2]!.replace(/\\(.)/g, '$1'))
  }
  return titles
}

describe('seed 000, sentence by sentence', () => {
  it('lists each sentence once, every one either tested or said not to apply, with a reason', () => {
    const statements = SEED_000.map((entry) => entry.statement)
    expect(new Set(statements).size).toBe(statements.length)
    expect(statements.length).toBeGreaterThan(140)
    for (const entry of SEED_000) {
      if ('tests' in entry)
        expect({ statement: entry.statement, tests: entry.tests.length > 0 }).toMatchObject({ tests: true })
      else expect(entry.notApplicable.length).toBeGreaterThan(20)
    }
    const tested = SEED_000.filter((entry) => 'tests' in entry).length
    expect(tested).toBeGreaterThan(120)
  })

  it('names for each applicable sentence tests that exist and quote it in their titles', () => {
    for (const entry of SEED_000) {
      if (!('tests' in entry)) continue
      for (const test of entry.tests) {
        const where = { statement: entry.statement, file: test.file, title: test.title }
        expect({ ...where, declared: titlesIn(test.file).has(test.title) }).toEqual({
          ...where,
          declared: true,
        })
        expect({ ...where, quoted: test.title.includes(`“${test.quote}”`) }).toEqual({
          ...where,
          quoted: true,
        })
        const ofTheSentence = entry.statement.toLowerCase().includes(test.quote.toLowerCase())
        expect({ ...where, quote: test.quote, ofTheSentence }).toEqual({
          ...where,
          quote: test.quote,
          ofTheSentence: true,
        })
      }
    }
  })
})
