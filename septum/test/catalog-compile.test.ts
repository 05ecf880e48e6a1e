import { describe, expect, it } from 'bun:test'
import { FormatError, type IntlMessageFormat } from 'intl-messageformat'
import { parse } from 'yaml'
import { CatalogError, checkCatalog, compileCatalog, lazyCatalog } from '../src/index.ts'

const compiled = (locale: string, yaml: string) => compileCatalog(locale, parse(yaml))
const message = (yaml: string, key = 'k'): IntlMessageFormat => {
  const found = compiled('en', yaml).messages.get(key)
  if (found === undefined) throw new Error(`no key ${key}`)
  return found
}
const caught = (run: () => unknown): CatalogError => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError)
    return error as CatalogError
  }
  throw new Error('expected a CatalogError')
}

describe('compileCatalog', () => {
  it('compiles every key for its locale', () => {
    const catalog = compiled(
      'fr',
      'a:\n  b: "Bonjour {name}"\nc: "{n, plural, one {# film} other {# films}}"\n',
    )
    expect(catalog.locale).toBe('fr')
    expect([...catalog.messages.keys()]).toEqual(['a.b', 'c'])
    expect(catalog.messages.get('a.b')?.format({ name: 'Bob' })).toBe('Bonjour Bob')
    // French plural "one" covers 0 as well as 1, which only the locale knows.
    expect(catalog.messages.get('c')?.format({ n: 0 })).toBe('0 film')
  })

  it('compiles an empty catalogue', () => {
    expect(compileCatalog('en', null).messages.size).toBe(0)
    expect(compileCatalog('en', {}).messages.size).toBe(0)
  })

  it('refuses the first key that fails to compile, naming locale, key and the ICU error', () => {
    const error = caught(() => compiled('en', 'ok: fine\nhelp:\n  text: "Try {name"\n'))
    expect(error.locale).toBe('en')
    expect(error.key).toBe('help.text')
    expect(error.message).toBe(
      'catalogue "en", key "help.text": EXPECT_ARGUMENT_CLOSING_BRACE at line 1, column 5',
    )
    expect(error.cause).toBeInstanceOf(Error)
  })

  it('refuses a leaf that is not a string before compiling anything', () => {
    const error = caught(() => compiled('en', 'a: 3\n'))
    expect(error.message).toBe('catalogue "en", key "a": expected a message string, found a number (3)')
  })

  it('refuses a locale that is not a language tag', () => {
    const error = caught(() => compileCatalog('en_US!', { a: 'x' }))
    expect(error.key).toBe('')
    expect(error.message).toBe('catalogue "en_US!": not a valid locale tag')
  })
})

describe('checkCatalog', () => {
  // Germination checks a spore's catalogues whole and keeps only their sources: a check must refuse
  // exactly what compiling refuses, with the same words.
  const refusals: ReadonlyArray<readonly [string, string]> = [
    ['en', 'ok: fine\nhelp:\n  text: "Try {name"\n'],
    ['en', 'help:\n  text: Try <title> now\n'],
    ['fr', 'c: "{n, plural, one {# film}}"\n'],
    ['en', 's: "{g, select}"\n'],
    ['en', 'a: 3\n'],
    ['en_US!', 'a: x\n'],
  ]
  for (const [locale, yaml] of refusals) {
    it(`refuses ${JSON.stringify(yaml)} as compileCatalog does`, () => {
      const compiling = caught(() => compileCatalog(locale, parse(yaml)))
      const checking = caught(() => checkCatalog(locale, parse(yaml)))
      expect(checking.message).toBe(compiling.message)
      expect(checking.key).toBe(compiling.key)
    })
  }

  it('accepts what compiles, plurals, selects, tags and skeletons included', () => {
    const yaml =
      'a:\n  b: "Bonjour {name}"\nc: "{n, plural, one {# film} other {# films}}"\nd: "<b>x</b>"\ne: "{n, number, ::percent}"\n'
    expect(() => checkCatalog('fr', parse(yaml))).not.toThrow()
    expect(compileCatalog('fr', parse(yaml)).messages.size).toBe(4)
  })
})

describe('the three ICU interactions catalogue authors must know', () => {
  it('a quote right before { opens a quoted section: the placeholder renders literally', () => {
    expect(message(`k: "'{name}'"`).format({ name: 'Bob' })).toBe('{name}')
  })

  it('a doubled quote keeps both the apostrophe and the interpolation', () => {
    expect(message(`k: "''{name}''"`).format({ name: 'Bob' })).toBe("'Bob'")
  })

  it('a bare <...> is a rich-text tag: unclosed, it fails the compile', () => {
    const error = caught(() => compiled('en', 'help:\n  text: Try <title> now\n'))
    expect(error.key).toBe('help.text')
    expect(error.reason).toBe('UNCLOSED_TAG at line 1, column 5')
    expect(error.message).toContain('UNCLOSED_TAG')
  })

  it('a quoted <...> renders literally', () => {
    expect(message(`k: "Try '<title>' now"`).format()).toBe('Try <title> now')
  })

  it('a placeholder nothing supplies compiles, and throws only when formatted', () => {
    const hello = message('k: "Hello {name}"')
    expect(() => hello.format()).toThrow(FormatError)
    expect(() => hello.format({})).toThrow('The intl string context variable "name" was not provided')
    expect(hello.format({ name: 'Bob' })).toBe('Hello Bob')
  })
})

describe('rich-text tags at format time', () => {
  const bold = () => message('k: "Queue <b>{title}</b> now"')

  it('a well-formed tag compiles, but formatting without a handler for it throws like a missing value', () => {
    expect(() => bold().format({ title: 'Alien' })).toThrow(
      'The intl string context variable "b" was not provided',
    )
  })

  it('a handler returning a string yields a string', () => {
    const text = bold().format({ title: 'Alien', b: (chunks) => `*${chunks.join('')}*` })
    expect(text).toBe('Queue *Alien* now')
  })

  it('a handler returning anything else yields parts, not a string', () => {
    const parts = bold().format<{ tag: string }>({ title: 'Alien', b: () => ({ tag: 'b' }) })
    expect(parts).toEqual(['Queue ', { tag: 'b' }, ' now'])
  })
})

describe('lazyCatalog', () => {
  it('answers the same messages as compileCatalog, each compiled when first read', () => {
    const yaml = 'a:\n  b: "Bonjour {name}"\nc: "{n, plural, one {# film} other {# films}}"\n'
    const lazy = lazyCatalog('fr', parse(yaml))
    expect([...lazy.messages.keys()]).toEqual(['a.b', 'c'])
    expect(lazy.messages.get('a.b')?.format({ name: 'Bob' })).toBe('Bonjour Bob')
    expect(lazy.messages.get('c')?.format({ n: 2 })).toBe('2 films')
    // Read twice, compiled once.
    expect(lazy.messages.get('c')).toBe(lazy.messages.get('c')!)
  })

  it('throws, at the first read of a key that does not compile, the error compileCatalog throws', () => {
    const yaml = 'good: "fine"\nbad: "<b>unclosed"\n'
    const eager = caught(() => compiled('en', yaml))
    const lazy = lazyCatalog('en', parse(yaml))
    expect(lazy.messages.get('good')?.format()).toBe('fine')
    const late = caught(() => lazy.messages.get('bad'))
    expect([late.key, late.message]).toEqual([eager.key, eager.message])
    expect(caught(() => lazyCatalog('not a tag!', {})).message).toBe(
      caught(() => compileCatalog('not a tag!', {})).message,
    )
  })
})
