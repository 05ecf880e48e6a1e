// The bot's command rules, shared by the core's message path and the test bot: one implementation.
/** A message that starts with the prefix, split into a command name and its words. */
export interface ParsedCommand {
  /** Lower-cased: `help`, or `plugin.command` when qualified. */
  readonly name: string
  /** Everything after the name, verbatim but for surrounding whitespace; split only by bindArgs. */
  readonly rest: string
}

export interface Word {
  /** The word with its quotes removed. */
  readonly value: string
  /** Where the word starts in `rest`, quotes included. */
  readonly start: number
}

/**
 * Answers null for a message that is not a command, which the bot leaves unanswered. Every message
 * comes through here, so it is one pass over the characters rather than trims, slices and a case
 * fold each making a string of their own: the name is folded only when it has something to fold.
 */
export function parseCommand(text: string, prefix: string): ParsedCommand | null {
  const length = text.length
  let begin = 0
  while (begin < length && isSpace(text.charCodeAt(begin))) begin++
  if (!text.startsWith(prefix, begin)) return null
  const start = begin + prefix.length
  let end = start
  let folded = true
  let hash = 0
  for (; end < length; end++) {
    const code = text.charCodeAt(end)
    if (code < 128) {
      if (code === 32 || (code >= 9 && code <= 13)) break
      if (code >= 65 && code <= 90) folded = false
    } else if (isSpace(code)) break
    else folded = false
    hash = (hash * 31 + code) | 0
  }
  if (end === start) return null
  const name = folded ? knownName(text, start, end, hash) : text.slice(start, end).toLowerCase()
  let from = end
  let to = length
  while (from < to && isSpace(text.charCodeAt(from))) from++
  while (to > from && isSpace(text.charCodeAt(to - 1))) to--
  return { name, rest: from === to ? '' : text.slice(from, to) }
}

/** Names remembered by the hash of their characters; a slot holds the last name that landed in it. */
const NAME_SLOTS = 64
const NAME_KEPT_LENGTH = 48
const names: (string | undefined)[] = new Array(NAME_SLOTS).fill(undefined)

/**
 * The name between `start` and `end`, as the same string the last message naming it got: commands
 * are few and come back all the time, so most messages make no string for their name (and the
 * route lookup finds its hash already computed). The characters are compared, never trusted to the hash.
 */
function knownName(text: string, start: number, end: number, hash: number): string {
  const length = end - start
  if (length > NAME_KEPT_LENGTH) return text.slice(start, end)
  const slot = hash & (NAME_SLOTS - 1)
  const kept = names[slot]
  if (kept !== undefined && kept.length === length && text.startsWith(kept, start)) return kept
  const name = text.slice(start, end)
  names[slot] = name
  return name
}

const DOUBLE_QUOTE = 34
const SINGLE_QUOTE = 39

/** The same whitespace as the regular expression `\s`, without running one for every ASCII character. */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13)
  return /\s/.test(String.fromCharCode(code))
}

/** Splits on whitespace, honouring "double" and 'single' quotes; an unclosed quote runs to the end. */
export function splitWords(text: string): Word[] {
  const words: Word[] = []
  const end = text.length
  let i = 0
  while (i < end) {
    while (i < end && isSpace(text.charCodeAt(i))) i++
    if (i >= end) break
    const start = i
    let value = ''
    // Unquoted characters are copied a run at a time, each quoted part without its quotes.
    let run = i
    while (i < end && !isSpace(text.charCodeAt(i))) {
      const code = text.charCodeAt(i)
      if (code !== DOUBLE_QUOTE && code !== SINGLE_QUOTE) {
        i++
        continue
      }
      const close = text.indexOf(text[i]!, i + 1)
      const stop = close === -1 ? end : close
      value += text.slice(run, i) + text.slice(i + 1, stop)
      i = close === -1 ? end : close + 1
      run = i
    }
    words.push({ value: value + text.slice(run, i), start })
  }
  return words
}

/**
 * Binds words to declared args by position; the last arg takes the rest of the line as typed, but
 * for the quotes around it when it is one quoted word. Too few words give a partial or empty bag,
 * never a refusal: the handler owns its usage sentence.
 */
export function bindArgs(names: readonly string[], command: ParsedCommand): Record<string, string> {
  const args: Record<string, string> = {}
  if (names.length === 0) return args
  const { rest } = command
  // One arg takes the whole line as typed: only a quoted line needs splitting to know if it is one word.
  if (names.length === 1 && !isQuoted(rest)) {
    if (rest !== '') args[names[0]!] = rest
    return args
  }
  const words = splitWords(rest)
  // A loop, not forEach: a callback closing over the bag would have its scope made at every call.
  const last = names.length - 1
  for (let index = 0; index <= last && index < words.length; index++) {
    const word = words[index]!
    if (index < last) {
      args[names[index]!] = word.value
      continue
    }
    const raw = rest.slice(word.start).trim()
    args[names[index]!] = words.length - index === 1 && isQuoted(raw) ? word.value : raw
  }
  return args
}

function isQuoted(text: string): boolean {
  // Compared, not read by character code: a command's rest is a slice of its message, which JSC
  // copies out into characters of its own on the first character read, and startsWith does not.
  const quote = text.startsWith('"') ? '"' : text.startsWith("'") ? "'" : undefined
  if (quote === undefined) return false
  const last = text.length - 1
  return last > 0 && text.endsWith(quote) && text.indexOf(quote, 1) === last
}
