import { readFileSync, realpathSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'
import { faultText } from './fault.ts'

/** Where in a file something went wrong, as Bun reports it: lines and columns counted from 1. */
interface Position {
  readonly file: string
  readonly line: number
  readonly column: number
}

/**
 * Why a spore's module failed to import, led by `file:line:column` the way compilers print it, so
 * the operator can open the very spot: Bun's build errors carry a position, a missing import names
 * the file that asked for it, and a throw at top level has a stack.
 */
export function loadFaultText(error: unknown, dir: string): string {
  const [first, ...others] = buildErrors(error)
  if (first !== undefined) {
    const more = others.length === 0 ? '' : ` (and ${others.length} more)`
    return withoutReloadQuery(`${located(positionOf(first), dir)}${faultText(first)}${more}`)
  }
  return withoutReloadQuery(
    `${located(positionOf(error) ?? stackPosition(error, dir), dir)}${faultText(error)}`,
  )
}

/** A reload imports `file?v=<n>` to load it afresh (shared-modules.ts): the reader's file has no such name. */
const RELOAD_QUERY = /\?v=\d+/g

function withoutReloadQuery(text: string): string {
  return text.replace(RELOAD_QUERY, '')
}

/** A syntax error in a module comes as an AggregateError of Bun's BuildMessages, one per problem. */
function buildErrors(error: unknown): unknown[] {
  if (!(error instanceof AggregateError)) return []
  return error.errors.filter((each) => positionOf(each) !== undefined)
}

function positionOf(error: unknown): Position | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { position, referrer, specifier } = error as Record<string, unknown>
  if (isPosition(position)) return position
  // A module that cannot be found: Bun names who imported it, not where; the specifier's first
  // quoted appearance in that file is the import.
  if (typeof referrer === 'string' && typeof specifier === 'string')
    return importPosition(withoutReloadQuery(referrer), withoutReloadQuery(specifier))
  return undefined
}

function isPosition(value: unknown): value is Position {
  if (typeof value !== 'object' || value === null) return false
  const { file, line, column } = value as Record<string, unknown>
  return typeof file === 'string' && typeof line === 'number' && typeof column === 'number' && line > 0
}

function importPosition(file: string, specifier: string): Position | undefined {
  let source: string
  try {
    source = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  const lines = source.split('\n')
  for (const [index, text] of lines.entries()) {
    const at = [`'${specifier}'`, `"${specifier}"`, `\`${specifier}\``]
      .map((quoted) => text.indexOf(quoted))
      .filter((column) => column >= 0)
    if (at.length > 0) return { file, line: index + 1, column: Math.min(...at) + 1 }
  }
  return { file, line: 0, column: 0 }
}

/** The first stack frame inside the spore's own folder: where its code threw while loading. */
function stackPosition(error: unknown, dir: string): Position | undefined {
  if (!(error instanceof Error) || error.stack === undefined) return undefined
  for (const match of error.stack.matchAll(/\(?((?:file:\/\/)?\/[^\s()]+):(\d+):(\d+)\)?$/gm)) {
    const file = withoutReloadQuery(match[1]!.replace(/^file:\/\//, ''))
    if (!inside(file, dir)) continue
    return { file, line: Number(match[2]), column: Number(match[3]) }
  }
  return undefined
}

/** The position as a prefix, the file relative to the spore's folder when inside it. */
function located(position: Position | undefined, dir: string): string {
  if (position === undefined) return ''
  const file =
    relativeInside(position.file, dir) ?? relativeInside(position.file, realPath(dir)) ?? position.file
  return position.line > 0 ? `${file}:${position.line}:${position.column}: ` : `${file}: `
}

function inside(file: string, dir: string): boolean {
  return relativeInside(file, dir) !== undefined || relativeInside(file, realPath(dir)) !== undefined
}

/** `file` relative to `dir` when inside it. */
function relativeInside(file: string, dir: string): string | undefined {
  const path = relative(dir, file)
  return path !== '' && !path.startsWith('..') && !isAbsolute(path) ? path : undefined
}

/** A spore's folder may be a link (`mycelo dev` links the author's folder): Bun names files by their real path. */
function realPath(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return dir
  }
}
