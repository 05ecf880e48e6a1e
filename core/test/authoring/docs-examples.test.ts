// The spore docs/writing-spores.md builds, extracted block by block (each names its file in its first
// line), typechecked with the checkout's compiler and run with its own test, as a reader would.
import { afterAll, expect, it } from 'bun:test'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { run, said, TSC } from '../../../septum/test/support/packed-septum.ts'

const CHECKOUT = join(import.meta.dir, '..', '..', '..')
// Inside the checkout (git-ignored), so the example resolves @mycelo/septum and zod as a spore there does.
const place = join(CHECKOUT, '.test-tmp', `docs-examples-${process.pid}`)
afterAll(() => rmSync(place, { recursive: true, force: true }))

/** Every fenced block whose first line is `// spores/<name>/…` or `# spores/<name>/…`, by that path. */
function examples(markdown: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const [, body] of markdown.matchAll(/```(?:ts|yaml)\n([\s\S]*?)```/g)) {
    const first = body!.split('\n', 1)[0]!
    const named = /^(?:\/\/|#) (spores\/[a-z0-9-]+\/\S+)$/.exec(first)
    if (named) files.set(named[1]!, body!)
  }
  return files
}

it('the notify spore of writing-spores.md typechecks and passes its own test', () => {
  const all = examples(readFileSync(join(CHECKOUT, 'docs', 'writing-spores.md'), 'utf8'))
  const files = new Map([...all].filter(([path]) => path.startsWith('spores/notify/')))
  expect([...files.keys()].sort()).toEqual([
    'spores/notify/spore.yaml',
    'spores/notify/src/index.ts',
    'spores/notify/test/notify.test.ts',
    'spores/notify/translations/en.yaml',
  ])
  for (const [path, body] of files) {
    mkdirSync(dirname(join(place, path)), { recursive: true })
    writeFileSync(join(place, path), body)
  }
  const spore = join(place, 'spores', 'notify')
  writeFileSync(
    join(spore, 'tsconfig.json'),
    JSON.stringify({ extends: join(CHECKOUT, 'tsconfig.json'), include: ['**/*.ts'], exclude: [] }),
  )
  const typed = run(TSC, ['--noEmit', '-p', 'tsconfig.json'], spore)
  expect(typed.status, said(typed)).toBe(0)
  const tested = run(process.execPath, ['test', './test/'], spore)
  expect(tested.status, said(tested)).toBe(0)
  expect(tested.stderr).toMatch(/\b2 pass\b/)
}, 60_000)
