import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { parse, YAMLError } from 'yaml'

/** Aliases a document may resolve before yaml refuses it as an expansion attack (yaml's own default). */
const MAX_ALIAS_COUNT = 100

export type YamlFileRead =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: string }

/**
 * Parses a YAML file the core did not write, reading at most `maxBytes` of it: a bigger file is
 * refused unparsed, and an alias bomb is refused by yaml's alias count rather than expanded.
 * Faults of the file system (missing, unreadable, a loop) are answered as problems too.
 */
export async function readYamlFile(path: string, maxBytes: number): Promise<YamlFileRead> {
  let text: string
  try {
    const read = readBounded(path, maxBytes)
    if (read === 'not a file') return { ok: false, problem: 'it is not a regular file' }
    if (read === 'too large') return { ok: false, problem: `it is larger than ${sizeText(maxBytes)}` }
    text = read.text
  } catch (error) {
    return { ok: false, problem: errorText(error) }
  }
  try {
    return { ok: true, value: parse(text, { maxAliasCount: MAX_ALIAS_COUNT }) }
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message))
      return { ok: false, problem: `it uses aliases past the limit of ${MAX_ALIAS_COUNT} expansions` }
    // yaml follows its message with the lines around the fault: the file's own text, left out here.
    if (error instanceof YAMLError)
      return { ok: false, problem: error.message.split('\n')[0]!.replace(/:$/, '') }
    return { ok: false, problem: errorText(error) }
  }
}

/**
 * The file's text, never reading past `maxBytes`. Read with synchronous calls: a spore's files are
 * small and local, and at a start with hundreds of spores each asynchronous call's round trip cost
 * more than the read itself (1,500 files: 240-300 ms one after the other, against 10 ms).
 */
function readBounded(path: string, maxBytes: number): { text: string } | 'too large' | 'not a file' {
  // Non-blocking, so a FIFO in place of the file answers at once instead of waiting for a writer.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) return 'not a file'
    const bound = maxBytes + 1
    // Sized from the file rather than the bound (files are small, the bound is not), and grown
    // towards the bound should the file grow while it is read.
    let buffer = Buffer.allocUnsafe(Math.min(bound, stat.size + 1))
    let length = 0
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length)
      if (bytesRead === 0) break
      length += bytesRead
      if (length < buffer.length) continue
      if (buffer.length === bound) break
      const grown = Buffer.allocUnsafe(Math.min(bound, buffer.length * 2))
      buffer.copy(grown, 0, 0, length)
      buffer = grown
    }
    return length > maxBytes ? 'too large' : { text: buffer.subarray(0, length).toString('utf8') }
  } finally {
    closeSync(fd)
  }
}

function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error)
}
