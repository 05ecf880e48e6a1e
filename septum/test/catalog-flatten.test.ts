import { describe, expect, it } from 'bun:test'
import { parse } from 'yaml'
import { CatalogError, flattenCatalog } from '../src/index.ts'

const caught = (run: () => unknown): CatalogError => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError)
    return error as CatalogError
  }
  throw new Error('expected a CatalogError')
}

describe('flattenCatalog', () => {
  it('flattens nested mappings to dotted keys', () => {
    const parsed = parse(
      ['command:', '  help:', '    description: Show help', 'help:', '  text: "Try /add"', ''].join('\n'),
    )
    expect([...flattenCatalog('en', parsed)]).toEqual([
      ['command.help.description', 'Show help'],
      ['help.text', 'Try /add'],
    ])
  })

  it('reads a file that parses to null, or to an empty mapping, as an empty catalogue', () => {
    expect(flattenCatalog('en', parse('')).size).toBe(0)
    expect(flattenCatalog('en', parse('# nothing yet\n')).size).toBe(0)
    expect(flattenCatalog('en', parse('{}')).size).toBe(0)
    expect(flattenCatalog('en', { empty: {} }).size).toBe(0)
  })

  it('skips an entry left empty, so the key falls through to another locale', () => {
    expect([...flattenCatalog('fr', parse('help:\n  text:\n  title: Aide\n'))]).toEqual([
      ['help.title', 'Aide'],
    ])
  })

  it('refuses a leaf that is not a string, naming locale and key', () => {
    for (const [yaml, found] of [
      ['a:\n  count: 3\n', 'a number (3)'],
      ['a:\n  count: [x, y]\n', 'a list'],
      ['a:\n  count: true\n', 'a boolean (true)'],
    ] as const) {
      const error = caught(() => flattenCatalog('fr', parse(yaml)))
      expect(error.locale).toBe('fr')
      expect(error.key).toBe('a.count')
      expect(error.message).toBe(`catalogue "fr", key "a.count": expected a message string, found ${found}`)
    }
  })

  it('refuses a file that is not a mapping', () => {
    const error = caught(() => flattenCatalog('en', parse('- a\n- b\n')))
    expect(error.key).toBe('')
    expect(error.message).toBe('catalogue "en": expected a mapping of keys, found a list')
  })

  it('refuses a key defined twice, once dotted and once nested', () => {
    const error = caught(() => flattenCatalog('en', parse('help.text: one\nhelp:\n  text: two\n')))
    expect(error.key).toBe('help.text')
    expect(error.message).toBe('catalogue "en", key "help.text": defined twice')
  })
})
