import { describe, expect, it } from 'bun:test'
import { MESSAGE_LIMIT, splitText } from '../src/split.ts'

describe('splitText', () => {
  it('leaves text within the limit whole', () => {
    expect(splitText('hello')).toEqual(['hello'])
    expect(splitText('x'.repeat(MESSAGE_LIMIT))).toEqual(['x'.repeat(MESSAGE_LIMIT)])
  })

  it('answers nothing for empty or blank text, which Discord would refuse', () => {
    expect(splitText('')).toEqual([])
    expect(splitText('  \n ')).toEqual([])
  })

  it('cuts at the last line break that fits, dropping the break', () => {
    expect(splitText('aaa\nbbb\nccc', 8)).toEqual(['aaa\nbbb', 'ccc'])
  })

  it('takes a line break sitting just past the limit, so a full-length line is kept whole', () => {
    expect(splitText('aaaa\nbbbb', 4)).toEqual(['aaaa', 'bbbb'])
  })

  it('prefers a line break to a later space', () => {
    expect(splitText('aa\nbb cc dd', 8)).toEqual(['aa', 'bb cc dd'])
  })

  it('falls back to the last space or tab when no line break fits', () => {
    expect(splitText('one two three four', 10)).toEqual(['one two', 'three four'])
    expect(splitText('one\ttwo\tthree', 8)).toEqual(['one\ttwo', 'three'])
  })

  it('cuts hard at the limit when a word is longer than a message', () => {
    expect(splitText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij'])
  })

  it('never cuts a surrogate pair in two', () => {
    const pieces = splitText(`abc${'🍄'.repeat(3)}`, 4)
    expect(pieces).toEqual(['abc', '🍄🍄', '🍄'])
    expect(pieces.join('')).toBe(`abc${'🍄'.repeat(3)}`)
  })

  it('keeps every piece within the limit and the text in order', () => {
    const lines = Array.from({ length: 300 }, (_, index) => `line ${index} ${'word '.repeat(index % 40)}`)
    const text = lines.join('\n')
    const pieces = splitText(text)
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(MESSAGE_LIMIT)
    expect(pieces.join('\n')).toBe(text)
  })

  it('refuses a limit that cannot make progress', () => {
    expect(() => splitText('abc', 1)).toThrow('limit must be an integer ≥ 2, got 1')
  })
})
