// The TypeScript examples of a README, as files of a project: every ```ts block becomes one file.
// `ts file=<path>` places a block at that path (so examples can import one another, as a spore's
// test imports its module), and `yaml file=<path>` writes a spore's manifest or catalogue beside
// them; a fragment is preceded by `<!-- typecheck-with: … -->`, whose text goes before it in its
// file, so the names it uses without declaring them are declared there.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export interface Example {
  /** The README line of the opening fence, for a failure's message. */
  readonly line: number
  /** Where the block is written in the project. */
  readonly path: string
  /** What precedes the block in its file (a fragment's declarations), or ''. */
  readonly prelude: string
  readonly code: string
  readonly language: 'ts' | 'yaml'
}

const FENCE = /^```(ts|yaml)(?:\s+file=(\S+))?\s*$/
const PRELUDE_OPEN = '<!-- typecheck-with:'

/** Every ```ts block and every ```yaml block with a file= of `markdown`; one that never closes throws. */
export function readmeExamples(markdown: string): Example[] {
  const lines = markdown.split('\n')
  const examples: Example[] = []
  for (let index = 0; index < lines.length; index++) {
    const fence = FENCE.exec(lines[index]!)
    if (fence === null || (fence[1] === 'yaml' && fence[2] === undefined)) {
      if (lines[index]!.startsWith('```ts')) throw new Error(`line ${index + 1}: an unknown ts fence`)
      continue
    }
    const close = lines.indexOf('```', index + 1)
    if (close === -1) throw new Error(`line ${index + 1}: the ts block never closes`)
    const line = index + 1
    examples.push({
      line,
      path: fence[2] ?? `examples/line-${String(line).padStart(4, '0')}.ts`,
      prelude: fence[1] === 'ts' ? preludeBefore(lines, index) : '',
      code: lines.slice(index + 1, close).join('\n'),
      language: fence[1] as 'ts' | 'yaml',
    })
    index = close
  }
  return examples
}

/** The `<!-- typecheck-with: … -->` comment right above a fence (blank lines between allowed). */
function preludeBefore(lines: readonly string[], fence: number): string {
  let end = fence - 1
  while (end >= 0 && lines[end]!.trim() === '') end--
  if (end < 0 || lines[end]!.trim() !== '-->') return ''
  let start = end - 1
  while (start >= 0 && !lines[start]!.startsWith(PRELUDE_OPEN)) {
    if (lines[start]!.includes('-->')) return ''
    start--
  }
  if (start < 0) return ''
  return lines.slice(start + 1, end).join('\n')
}

/** Writes each example into `dir`; two examples at one path throw. Answers the paths, by README line. */
export function writeExamples(dir: string, examples: readonly Example[]): Map<string, number> {
  const written = new Map<string, number>()
  for (const example of examples) {
    const taken = written.get(example.path)
    if (taken !== undefined)
      throw new Error(`the examples at lines ${taken} and ${example.line} both say file=${example.path}`)
    written.set(example.path, example.line)
    const path = join(dir, example.path)
    mkdirSync(dirname(path), { recursive: true })
    const prelude = example.prelude === '' ? '' : `${example.prelude}\n// ---- the README's block:\n`
    writeFileSync(path, `${prelude}${example.code}\n`)
  }
  return written
}

/** The compiler settings an author's spore uses (the scaffold's), checking every example as a module. */
export const EXAMPLES_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    moduleDetection: 'force',
    types: ['bun'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  },
  include: ['**/*.ts'],
  exclude: ['node_modules'],
}
