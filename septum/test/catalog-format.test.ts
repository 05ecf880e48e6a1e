// A message that closes a sentence after a value prints one period, not two, when the value is a
// sentence of its own: the class of "… dormant: <reason>.." wherever a message is formatted.
import { describe, expect, it } from 'bun:test'
import { compileCatalog, fixedTextOf, formatMessage } from '../src/index.ts'

const catalog = compileCatalog('en', {
  dormant: '{plugin} is dormant: {reason}.',
  middle: '{done}. Next: {next}',
  state: '{state, select, live {{plugin} is live} other {{plugin} is dormant: {reason}}}.',
  quoted: 'You wrote “{text}”.',
})
const format = (key: string, params: Record<string, unknown>) =>
  formatMessage(catalog.messages.get(key)!, params)

describe('formatMessage', () => {
  it('drops the period a message puts right after a value that already ends a sentence', () => {
    expect(format('dormant', { plugin: 'discord', reason: 'Fix it in chat.' })).toBe(
      'discord is dormant: Fix it in chat.',
    )
    for (const ending of ['!', '?', '…'])
      expect(format('dormant', { plugin: 'x', reason: `really${ending}` })).toBe(
        `x is dormant: really${ending}`,
      )
    expect(format('middle', { done: 'Saved.', next: 'restart' })).toBe('Saved. Next: restart')
    // Inside a select, as the admin spore's /set reply words it.
    expect(format('state', { state: 'dormant', plugin: 'discord', reason: 'token: Required.' })).toBe(
      'discord is dormant: token: Required.',
    )
  })

  it('keeps the period after any other value, and the value exactly as given', () => {
    expect(format('dormant', { plugin: 'discord', reason: 'no token' })).toBe('discord is dormant: no token.')
    expect(format('state', { state: 'live', plugin: 'discord' })).toBe('discord is live.')
    // Not right after the value: both stay.
    expect(format('quoted', { text: 'Hi.' })).toBe('You wrote “Hi.”.')
    // An ellipsis of three periods in a value is its own, not a doubled period.
    expect(format('middle', { done: 'Wait...', next: 'go' })).toBe('Wait... Next: go')
    expect(format('dormant', { plugin: 'x', reason: 'a... b' })).toBe('x is dormant: a... b.')
  })
})

describe('formatMessage on plain messages (text and {name} only), joined without ICU parts', () => {
  const plain = compileCatalog('en', {
    one: 'echo: {text}',
    two: '{a}{b} and {a}',
    none: 'no placeholder',
    empty: '',
    escaped: "it''s '{literal}' {x}",
  })
  // The same compiled message with its AST hidden: intl-messageformat formats it, as before.
  const throughIcu = (key: string) => {
    const message = plain.messages.get(key)!
    return { format: (values?: Record<string, never>) => message.format(values) }
  }
  const values: unknown[] = [
    'hi',
    'Done.',
    'a\u2063.b\u2063',
    '',
    0,
    42,
    1.5,
    Number.NaN,
    10n,
    null,
    undefined,
    false,
  ]

  it('prints every kind of value exactly as intl-messageformat does', () => {
    for (const key of ['one', 'two', 'none', 'empty', 'escaped'])
      for (const a of values)
        for (const b of ['x', 'End!']) {
          const params = { text: a, a, b, x: b }
          expect(formatMessage(plain.messages.get(key)!, params)).toBe(formatMessage(throughIcu(key), params))
        }
    expect(formatMessage(plain.messages.get('escaped')!, { x: 1 })).toBe("it's {literal} 1")
    expect(formatMessage(plain.messages.get('two')!, { a: 'Done.', b: '.x' })).toBe('Done.x and Done.')
  })

  it('leaves a missing value, an object or true to intl-messageformat, which throws or prints it as before', () => {
    const one = plain.messages.get('one')!
    expect(() => formatMessage(one, {})).toThrow(/text/)
    expect(() => formatMessage(one)).toThrow(/text/)
    expect(formatMessage(one, { text: true })).toBe(formatMessage(throughIcu('one'), { text: true }))
    expect(formatMessage(one, { text: ['a', 'b'] })).toBe(
      formatMessage(throughIcu('one'), { text: ['a', 'b'] }),
    )
  })
})

describe('fixedTextOf: the text of a message that never changes, read once', () => {
  const messages = compileCatalog('en', {
    none: 'no placeholder',
    empty: '',
    escaped: "it''s '{literal}'",
    one: 'echo: {text}',
    plural: '{n, plural, one {# spore} other {# spores}}',
    select: '{kind, select, dm {direct} other {group}}',
    tag: 'see <b>this</b>',
  }).messages

  it('is the text intl-messageformat prints for a message of text alone, quotes undone', () => {
    for (const key of ['none', 'empty', 'escaped']) {
      const message = messages.get(key)!
      expect(fixedTextOf(message)).toBe(String(message.format()))
    }
    expect(fixedTextOf(messages.get('escaped')!)).toBe("it's {literal}")
  })

  it('is undefined for a message whose text depends on its values: a placeholder, a plural, a select, a tag', () => {
    for (const key of ['one', 'plural', 'select', 'tag'])
      expect(fixedTextOf(messages.get(key)!)).toBeUndefined()
  })

  it('is undefined for a message it cannot read the parts of', () => {
    expect(fixedTextOf({ format: () => 'text' })).toBeUndefined()
  })
})
