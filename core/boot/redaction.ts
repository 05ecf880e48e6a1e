import { SECRET_MASK } from '@mycelo/septum'

/**
 * Below this length a secret is masked only where it is a whole value. Searched for inside text,
 * a one-character secret matches every such character in every line: the lines stop being JSON,
 * and where the mask falls gives the secret away.
 */
export const EMBEDDED_MIN = 6
/** From this length a secret is masked wherever it appears, even inside a longer word: no coincidence is that long. */
export const ANYWHERE_MIN = 16
/**
 * A secret made of dot-separated parts (a Discord bot token, a JWT) has each part this long masked
 * on its own too: libraries log such tokens censored part by part, the first part left readable.
 */
export const PART_MIN = 16

/** pino's own fields: a secret that happens to equal a level, a timestamp or a pid leaves them be. */
const ENVELOPE = new Set(['level', 'time', 'pid'])
/** Top-level keys a reader of the line relies on; their values are masked like any other. */
const ENVELOPE_KEYS = new Set([...ENVELOPE, 'hostname', 'msg'])
const WORD = /[\p{L}\p{N}_]/u

/** Masks secret values in finished JSON log lines, keeping each line valid JSON. */
export class Redactor {
  #whole: ReadonlySet<string> = new Set()
  /** Escaped as they appear in a serialized line: a line holding none of them has nothing to mask. */
  #traces: readonly string[] = []
  #embedded: RegExp | undefined

  use(values: Iterable<string>): void {
    const whole = new Set<string>()
    const embedded = new Set<string>()
    for (const value of values) {
      if (value === '') continue
      whole.add(value)
      // A secret inside a string that was itself serialized (a JSON body in a message) is escaped there.
      for (const form of [value, escaped(value)]) if (form.length >= EMBEDDED_MIN) embedded.add(form)
      for (const part of value.split('.')) if (part !== value && part.length >= PART_MIN) embedded.add(part)
    }
    this.#whole = whole
    this.#traces = [...new Set([...whole, ...embedded].map(escaped))]
    // Longest first, so a secret containing a shorter one is masked whole.
    const sources = [...embedded].sort((a, b) => b.length - a.length).map(patternOf)
    this.#embedded = sources.length === 0 ? undefined : new RegExp(sources.join('|'), 'gu')
  }

  redact(line: string): string {
    if (!this.#traces.some((trace) => line.includes(trace))) return line
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      return this.#text(line)
    }
    const safe = this.#walk(parsed, true)
    return safe === parsed ? line : `${JSON.stringify(safe)}${line.endsWith('\n') ? '\n' : ''}`
  }

  /** The value with every secret masked; the very same value when there was none, so a caller can tell. */
  #walk(node: unknown, top: boolean): unknown {
    if (typeof node === 'string') return this.#text(node)
    // The store keeps a numeric secret as its text; as a number it can only be a whole value.
    if (typeof node === 'number') return this.#whole.has(String(node)) ? SECRET_MASK : node
    if (Array.isArray(node)) {
      const items = node.map((item) => this.#walk(item, false))
      return items.some((item, index) => item !== node[index]) ? items : node
    }
    if (typeof node !== 'object' || node === null) return node
    let changed = false
    const entries = Object.entries(node).map(([key, value]) => {
      const safeKey = top && ENVELOPE_KEYS.has(key) ? key : this.#text(key)
      const safeValue = top && ENVELOPE.has(key) ? value : this.#walk(value, false)
      if (safeKey !== key || safeValue !== value) changed = true
      return [safeKey, safeValue] as const
    })
    return changed ? Object.fromEntries(entries) : node
  }

  #text(text: string): string {
    if (this.#whole.has(text)) return SECRET_MASK
    return this.#embedded === undefined ? text : text.replace(this.#embedded, SECRET_MASK)
  }
}

function escaped(value: string): string {
  return JSON.stringify(value).slice(1, -1)
}

/** A short secret counts only where it stands as a token of its own, not inside a longer word. */
function patternOf(form: string): string {
  const source = form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  if (form.length >= ANYWHERE_MIN) return source
  const characters = [...form]
  const before = WORD.test(characters[0]!) ? '(?<![\\p{L}\\p{N}_])' : ''
  const after = WORD.test(characters.at(-1)!) ? '(?![\\p{L}\\p{N}_])' : ''
  return `${before}${source}${after}`
}
