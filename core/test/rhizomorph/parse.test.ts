import { describe, expect, it } from 'bun:test'
import { bindArgs, parseCommand, splitWords } from '@mycelo/septum'

describe('parseCommand', () => {
  it('answers null for text that is not a command', () => {
    expect(parseCommand('hello there', '/')).toBeNull()
    expect(parseCommand('/', '/')).toBeNull()
    expect(parseCommand('/ help', '/')).toBeNull()
  })

  it('splits the name from the rest, lower-casing the name', () => {
    const parsed = parseCommand('  /Help  me now ', '/')
    expect(parsed).toMatchObject({ name: 'help', rest: 'me now' })
  })

  it('keeps a qualified name whole and honours a longer prefix', () => {
    expect(parseCommand('!!radarr-helper.add x', '!!')?.name).toBe('radarr-helper.add')
  })

  it('trims and splits on every kind of whitespace the way trim() and \\s do, folding any letter', () => {
    // No-break, em and ideographic spaces, a byte-order mark and a line separator around and inside.
    expect(parseCommand('\uFEFF\u3000/ÉCHO\u2003a\u00A0b\u2028', '/')).toEqual({
      name: 'écho',
      rest: 'a\u00A0b',
    })
    expect(parseCommand('/Ping\t\r\n', '/')).toEqual({ name: 'ping', rest: '' })
    expect(parseCommand('/ping', '/')).toEqual({ name: 'ping', rest: '' })
    expect(parseCommand('\u2003/\u2003ping', '/')).toBeNull()
    expect(parseCommand(' !x', ' !')).toBeNull()
  })
})

describe('the names parseCommand remembers', () => {
  it('gives every name its own characters, whichever names share a slot, case or length', () => {
    // Every name of up to four of a few letters: hundreds of same-length names share 64 slots.
    const names: string[] = []
    let longest = ['']
    for (let length = 1; length <= 4; length++) {
      longest = longest.flatMap((name) => ['a', 'b', 'E', 'é', '-'].map((letter) => name + letter))
      names.push(...longest)
    }
    names.push('x'.repeat(48), 'x'.repeat(49), 'x'.repeat(200))
    for (let round = 0; round < 3; round++) {
      for (const name of names) {
        const text = round === 1 ? ` /${name}\targ` : `/${name}`
        expect(parseCommand(text, '/')?.name).toBe(name.toLowerCase())
      }
    }
  })
})

describe('splitWords', () => {
  it('honours double and single quotes', () => {
    expect(splitWords(`"The Matrix" 1999 'a b'c`).map((w) => w.value)).toEqual(['The Matrix', '1999', 'a bc'])
  })

  it('runs an unclosed quote to the end', () => {
    expect(splitWords('"open quote here').map((w) => w.value)).toEqual(['open quote here'])
  })
})

describe('bindArgs', () => {
  const parsed = (text: string) => parseCommand(text, '/')!

  it('binds by position, quotes honoured', () => {
    expect(bindArgs(['title', 'year'], parsed('/add "The Matrix" 1999'))).toEqual({
      title: 'The Matrix',
      year: '1999',
    })
  })

  it('gives the last arg the rest, verbatim', () => {
    expect(bindArgs(['who', 'message'], parsed('/tell bob see you at 8, "ok"?'))).toEqual({
      who: 'bob',
      message: 'see you at 8, "ok"?',
    })
  })

  it('unquotes a single remaining word for the last arg', () => {
    expect(bindArgs(['title'], parsed('/add "The Matrix"'))).toEqual({ title: 'The Matrix' })
  })

  it('keeps quotes inside a single last word, such as a JSON list', () => {
    expect(bindArgs(['plugin', 'key', 'value'], parsed('/set discord guilds ["123", "456"]'))).toEqual({
      plugin: 'discord',
      key: 'guilds',
      value: '["123", "456"]',
    })
    expect(bindArgs(['key', 'value'], parsed('/set guilds ["123"]'))).toEqual({
      key: 'guilds',
      value: '["123"]',
    })
    expect(bindArgs(['key', 'value'], parsed("/set name 'Ada'"))).toEqual({ key: 'name', value: 'Ada' })
  })

  it('gives a lone arg the whole line as typed, unquoting it only when it is one quoted word', () => {
    const one = (text: string) => bindArgs(['text'], parsed(text))
    expect(one('/echo hello  there ')).toEqual({ text: 'hello  there' })
    expect(one('/echo "hello there"')).toEqual({ text: 'hello there' })
    expect(one('/echo "hello" "there"')).toEqual({ text: '"hello" "there"' })
    expect(one("/echo it's")).toEqual({ text: "it's" })
    expect(one('/echo')).toEqual({})
  })

  it('gives a partial or empty bag when words are missing', () => {
    expect(bindArgs(['title', 'year'], parsed('/add Alien'))).toEqual({ title: 'Alien' })
    expect(bindArgs(['title', 'year'], parsed('/add'))).toEqual({})
  })
})

describe('the parse as the message path sees it', () => {
  it('is a plain object of name and rest: words are split only when a command binds arguments', () => {
    const parsed = parseCommand('/echo "a b" c', '/')!
    expect(Object.getOwnPropertyNames(parsed).sort()).toEqual(['name', 'rest'])
    expect(Object.values(Object.getOwnPropertyDescriptors(parsed)).every((d) => 'value' in d)).toBe(true)
  })

  it('splits on every kind of whitespace the way \\s does, and keeps word starts', () => {
    expect(splitWords('a\tb\u00a0c\u3000d\ne')).toEqual([
      { value: 'a', start: 0 },
      { value: 'b', start: 2 },
      { value: 'c', start: 4 },
      { value: 'd', start: 6 },
      { value: 'e', start: 8 },
    ])
    expect(splitWords(`x"y z"w 'q`)).toEqual([
      { value: 'xy zw', start: 0 },
      { value: 'q', start: 8 },
    ])
  })
})
