// How much a configuration file may hold, checked on the parsed syntax before anything is built
// from it: past a bound the import stops at once and names the place, so a file made to exhaust
// memory or time (a huge list, deep nesting, aliases that multiply) is refused rather than run.
import {
  type Document,
  isAlias,
  isCollection,
  isPair,
  isScalar,
  type LineCounter,
  type Pair,
  visit,
} from 'yaml'

export const IMPORT_BOUNDS = {
  /** Bytes of the file: an export with --data of a busy bot is far below it. */
  bytes: 2 * 1024 * 1024,
  /** Entries of every mapping and list together. */
  entries: 20_000,
  /** Mappings and lists inside each other. */
  depth: 32,
  /** Aliases (`*name`) in the file; each may stand for a whole anchored part. */
  aliases: 100,
} as const

/** Names an object's prototype answers to: as a key they would reach it rather than an entry. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

export interface BoundBreach {
  /** Where it is, `roles.admins[3]`, `(top)` for the whole file. */
  readonly path: string
  readonly line: number | undefined
  /** `core` key of the problem, under operations.importBound. */
  readonly problem: 'entries' | 'depth' | 'aliases' | 'reservedKey' | 'duplicateKey'
  readonly limit?: number
}

/** The first place `document` passes a bound or names a prototype's key, or undefined. */
export function firstBreach(document: Document, lines: LineCounter): BoundBreach | undefined {
  let entries = 0
  let aliases = 0
  let breach: BoundBreach | undefined
  const at = (path: readonly unknown[], node: unknown, problem: BoundBreach['problem'], limit?: number) => {
    const range = (node as { range?: [number, number, number] } | null)?.range
    breach = {
      path: pathOf(path),
      line: range === undefined ? undefined : lines.linePos(range[0]).line,
      problem,
      ...(limit === undefined ? {} : { limit }),
    }
    return visit.BREAK
  }
  const expanded = expansion(document)
  visit(document, (_key, node, path) => {
    if (isAlias(node)) {
      if (++aliases > IMPORT_BOUNDS.aliases)
        return at([...path, node], node, 'aliases', IMPORT_BOUNDS.aliases)
      // An alias stands for everything its anchor holds: counted as if written out, it cannot multiply.
      entries += expanded(node)
      if (entries > IMPORT_BOUNDS.entries) return at([...path, node], node, 'entries', IMPORT_BOUNDS.entries)
    }
    if (isPair(node)) {
      if (++entries > IMPORT_BOUNDS.entries)
        return at([...path, node], node.key, 'entries', IMPORT_BOUNDS.entries)
      if (isScalar(node.key) && PROTOTYPE_KEYS.has(String(node.key.value)))
        return at([...path, node], node.key, 'reservedKey')
    }
    if (isCollection(node)) {
      const depth = path.filter(isCollection).length + 1
      if (depth > IMPORT_BOUNDS.depth) return at([...path, node], node, 'depth', IMPORT_BOUNDS.depth)
      // Checked here in one pass: the parser's own check compares every key with every other.
      const twice = repeatedKey(node.items)
      if (twice !== undefined) return at([...path, node, twice], twice.key, 'duplicateKey')
      // A list's items are entries too; a mapping's are counted as pairs.
      if (!('items' in node) || node.items.some(isPair)) return undefined
      entries += node.items.length
      if (entries > IMPORT_BOUNDS.entries) return at([...path, node], node, 'entries', IMPORT_BOUNDS.entries)
    }
    return undefined
  })
  return breach
}

/** The second pair of a mapping whose key an earlier pair already has, if any. */
function repeatedKey(items: readonly unknown[]): Pair<unknown, unknown> | undefined {
  const seen = new Set<unknown>()
  for (const item of items) {
    if (!isPair(item) || !isScalar(item.key)) continue
    if (seen.has(item.key.value)) return item
    seen.add(item.key.value)
  }
  return undefined
}

/** How many entries a node stands for once its aliases are written out; a cycle stands for too many. */
function expansion(document: Document): (node: unknown) => number {
  const sizes = new Map<unknown, number>()
  const size = (node: unknown): number => {
    if (isAlias(node)) return size(node.resolve(document))
    if (!isCollection(node)) return 0
    const known = sizes.get(node)
    if (known !== undefined) return known
    sizes.set(node, Number.POSITIVE_INFINITY)
    let total = node.items.length
    for (const item of node.items) total += isPair(item) ? size(item.key) + size(item.value) : size(item)
    sizes.set(node, total)
    return total
  }
  return size
}

/** `plugins.console.settings.prompt`, `broadcast[2]`: the keys of the pairs and the list indexes. */
function pathOf(path: readonly unknown[]): string {
  let text = ''
  for (const [index, node] of path.entries()) {
    if (isPair(node)) {
      const key = isScalar(node.key) ? String(node.key.value) : '?'
      text += text === '' ? key : `.${key}`
    } else if (isCollection(node) && !node.items.some(isPair)) {
      const child = path[index + 1]
      const position = child === undefined ? -1 : node.items.indexOf(child as never)
      if (position >= 0) text += `[${position}]`
    }
  }
  return text === '' ? '(top)' : text
}
