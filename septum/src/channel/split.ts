/**
 * Splits text into pieces of at most `limit` UTF-16 units, in order, for a channel that refuses
 * longer messages: at the last line break that fits, else at the last space or tab, else hard at
 * the limit (never inside a surrogate pair). The break a piece was cut at is dropped; pieces with
 * nothing but whitespace are left out, since channels refuse an empty message.
 */
export function splitText(text: string, limit: number): string[] {
  if (!Number.isInteger(limit) || limit < 2)
    throw new RangeError(`splitText: limit must be an integer ≥ 2, got ${limit}`)
  const pieces: string[] = []
  let rest = text
  while (rest.length > limit) {
    const { end, skip } = cutPoint(rest, limit)
    pieces.push(rest.slice(0, end))
    rest = rest.slice(end + skip)
  }
  pieces.push(rest)
  return pieces.filter((piece) => piece.trim() !== '')
}

/** Where to cut `text`, and how many break characters to drop there. */
function cutPoint(text: string, limit: number): { end: number; skip: number } {
  // The break itself may sit just past the limit: a piece of exactly `limit` units still fits.
  const window = text.slice(0, limit + 1)
  const line = window.lastIndexOf('\n')
  if (line > 0) return { end: line, skip: 1 }
  const word = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\t'))
  if (word > 0) return { end: word, skip: 1 }
  const code = text.charCodeAt(limit - 1)
  const splitsPair = code >= 0xd800 && code <= 0xdbff
  return { end: splitsPair ? limit - 1 : limit, skip: 0 }
}
