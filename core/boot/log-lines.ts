// The log's lines: one JSON object a line, in pino's shape (a level number, the time in
// milliseconds, the pid, a child's bindings, the meta, then `msg`), so pino-pretty and whoever
// reads the logs read them as before. Written here rather than by pino: the bot uses none of its
// transports or asynchronous writing, only this shape, and pino's thirty modules (with
// thread-stream, sonic-boom and their builtins) held about 2 MiB of an idle bot's memory.
import type { Logger } from '@mycelo/septum'

export const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const
export type LevelName = keyof typeof LEVELS

/** Where finished lines go: anything with a string `write`. */
export interface LogOutput {
  write(text: string): unknown
}

/** Writes lines at `level` (a level name, or `silent`) and above to `sink`, each ending in a newline. */
export function lineLogger(level: string, sink: LogOutput): Logger {
  const least = level === 'silent' ? Number.POSITIVE_INFINITY : (LEVELS[level as LevelName] ?? LEVELS.info)
  // Serialized once per child: every line of a spore's logger starts with its pid and bindings.
  const make = (bound: string): Logger => {
    const at =
      (name: LevelName) =>
      (message: string, meta?: Readonly<Record<string, unknown>>): void => {
        const number = LEVELS[name]
        if (number < least) return
        const fields = meta === undefined ? '' : membersOf(meta)
        const text = JSON.stringify(String(message))
        sink.write(`{"level":${number},"time":${Date.now()}${bound}${fields},"msg":${text}}\n`)
      }
    return {
      debug: at('debug'),
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
      child: (bindings) => make(`${bound}${membersOf(bindings)}`),
    }
  }
  return make(`,"pid":${process.pid}`)
}

/** `,"key":value…` for an object's members, or nothing for an empty one. */
function membersOf(values: Readonly<Record<string, unknown>>): string {
  const json = serialize(values)
  return json === '{}' ? '' : `,${json.slice(1, -1)}`
}

/**
 * JSON that a value of any shape turns into without throwing: an Error keeps its type, message and
 * stack (JSON.stringify would leave `{}`), a bigint is written as its digits, and a reference back
 * to an object being written reads "[Circular]".
 */
function serialize(value: unknown): string {
  // The objects being written, outermost first, each as written and as it was given.
  const path: { readonly written: object; readonly given: object }[] = []
  return JSON.stringify(value, function (this: unknown, _key, member: unknown) {
    if (typeof member === 'bigint') return member.toString()
    if (typeof member !== 'object' || member === null) return member
    // Depth first: whatever is not this member's holder has been written whole already.
    while (path.length > 0 && path[path.length - 1]!.written !== this) path.pop()
    if (path.some((entry) => entry.given === member)) return '[Circular]'
    const written = member instanceof Error ? errorFields(member) : member
    path.push({ written, given: member })
    return written
  })
}

function errorFields(error: Error): Record<string, unknown> {
  // An error's cause is its own member but not an enumerable one: named, or it would go unsaid.
  const cause = error.cause === undefined ? {} : { cause: error.cause }
  return { ...error, type: error.name, message: error.message, stack: error.stack, ...cause }
}
