/** A message that starts with the prefix, split into a command name and its words. */
export interface ParsedCommand {
  /** Lower-cased: `help`, or `plugin.command` when qualified. */
  readonly name: string
  /** Everything after the name, verbatim but for surrounding whitespace. */
  readonly rest: string
  /** `rest` split into words, quotes honoured; computed on first read, as most commands never need it. */
  readonly words: readonly Word[]
}

export interface Word {
  /** The word with its quotes removed. */
  readonly value: string
  /** Where the word starts in `rest`, quotes included. */
  readonly start: number
}

/** Answers null for a message that is not a command, which the bot leaves unanswered. */
export function parseCommand(text: string, prefix: string): ParsedCommand | null {
  const trimmed = text.trimStart()
  if (!trimmed.startsWith(prefix)) return null
  const body = trimmed.slice(prefix.length)
  const match = /^[^\s]+/.exec(body)
  if (!match) return null
  const rest = body.slice(match[0].length).trim()
  let words: Word[] | undefined
  return {
    name: match[0].toLowerCase(),
    rest,
    get words() {
      words ??= splitWords(rest)
      return words
    },
  }
}

/** Splits on whitespace, honouring "double" and 'single' quotes; an unclosed quote runs to the end. */
export function splitWords(text: string): Word[] {
  const words: Word[] = []
  let i = 0
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++
    if (i >= text.length) break
    const start = i
    let value = ''
    while (i < text.length && !/\s/.test(text[i]!)) {
      const quote = text[i]
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, i + 1)
        const end = close === -1 ? text.length : close
        value += text.slice(i + 1, end)
        i = close === -1 ? text.length : close + 1
      } else {
        value += text[i]
        i++
      }
    }
    words.push({ value, start })
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
  const { words, rest } = command
  names.forEach((name, index) => {
    const word = words[index]
    if (!word) return
    if (index < names.length - 1) {
      args[name] = word.value
      return
    }
    const raw = rest.slice(word.start).trim()
    args[name] = words.length - index === 1 && isQuoted(raw) ? word.value : raw
  })
  return args
}

function isQuoted(text: string): boolean {
  const quote = text[0]
  return (
    (quote === '"' || quote === "'") &&
    text.length > 1 &&
    text.endsWith(quote) &&
    text.indexOf(quote, 1) === text.length - 1
  )
}
