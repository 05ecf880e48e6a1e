// The README's and docs/'s fenced blocks, read the way the docs test runs them. A block whose info
// string holds one of the MARKS is run as shown: `mycelo-start` is the first start's output,
// `mycelo-chat` holds what is typed (`> /command`, so an answer may name commands too) each followed
// by its answer, `mycelo-cli` holds `$ bun run mycelo …` lines each followed by its output.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const MARKS = ['mycelo-start', 'mycelo-chat', 'mycelo-cli'] as const
export type Mark = (typeof MARKS)[number]

export interface Block {
  /** The file, relative to the repository, and the line the block's fence opens on. */
  readonly where: string
  readonly info: string
  readonly mark: Mark | undefined
  readonly lines: readonly string[]
}

/** One step of a run block: what is typed (absent for a start block) and what must be answered. */
export interface Step {
  readonly input: string | undefined
  readonly expected: readonly string[]
}

/** README.md and every page of docs/, relative to the repository's root. */
export function documentFiles(root: string): string[] {
  const pages = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
  return ['README.md', ...pages.map((name) => `docs/${name}`)]
}

export function blocksOf(root: string, file: string): Block[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n')
  const blocks: Block[] = []
  let open: { line: number; indent: number; fence: string; info: string; lines: string[] } | undefined
  lines.forEach((line, index) => {
    const fence = /^( *)(`{3,})(.*)$/.exec(line)
    if (open === undefined) {
      if (fence)
        open = {
          line: index + 1,
          indent: fence[1]!.length,
          fence: fence[2]!,
          info: fence[3]!.trim(),
          lines: [],
        }
      return
    }
    if (fence && fence[2] === open.fence && fence[3]!.trim() === '') {
      const mark = MARKS.find((name) => open!.info.split(/\s+/).includes(name))
      blocks.push({ where: `${file}:${open.line}`, info: open.info, mark, lines: open.lines })
      open = undefined
      return
    }
    // A block inside a list item is indented with it: the fence's indent is not part of a line.
    const indent = /^ */.exec(line)![0].length
    open.lines.push(line.slice(Math.min(indent, open.indent)).trimEnd())
  })
  return blocks
}

/** Splits a run block into steps: each input line, then the lines shown as its answer. */
export function stepsOf(block: Block): Step[] {
  if (block.mark === 'mycelo-start') return [{ input: undefined, expected: block.lines }]
  const typed = block.mark === 'mycelo-chat' ? '> ' : '$ '
  const steps: { input: string; expected: string[] }[] = []
  for (const line of block.lines) {
    if (line.startsWith(typed)) steps.push({ input: line.slice(typed.length), expected: [] })
    else if (steps.length > 0) steps.at(-1)!.expected.push(line)
    else throw new Error(`${block.where}: "${line}" comes before any command`)
  }
  return steps.map((step) => ({ ...step, expected: trimBlank(step.expected) }))
}

function trimBlank(lines: string[]): string[] {
  let start = 0
  let end = lines.length
  while (start < end && lines[start] === '') start++
  while (end > start && lines[end - 1] === '') end--
  return lines.slice(start, end)
}

/**
 * The expected lines as one pattern: each line must appear whole and in order, `…` standing for
 * any text (across lines too), so a page can shorten a long answer without lying about the rest.
 */
export function patternOf(expected: readonly string[]): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const body = expected
    .map((line) =>
      line
        .split('…')
        .map((part) => literal(part))
        .join('[\\s\\S]*?'),
    )
    .join('[ \\t]*\\r?\\n')
  return new RegExp(`(?:^|\\n)${body}[ \\t]*(?:\\r?\\n|$)`)
}

/** Words as a shell would split them: quotes group, and are removed. */
export function shellWords(line: string): string[] {
  const words: string[] = []
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g
  for (const match of line.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3]!)
  return words
}
