// `bun run mycelo dev <folder>`: the bot on the console with a scaffolded spore; an edit is
// reloaded and answers anew, a broken save is refused with its file, line and column.
import { afterAll, expect, it } from 'bun:test'
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scaffoldSpore } from '../../authoring/scaffold.ts'

const MAIN = join(import.meta.dir, '..', '..', 'cli', 'main.ts')
const place = mkdtempSync(join(tmpdir(), 'mycelo-dev-test-'))
const folder = join(place, 'hello-dev')
let child: ChildProcess | undefined
afterAll(() => {
  child?.kill('SIGKILL')
  rmSync(place, { recursive: true, force: true })
})

/** Everything a stream said so far, and a wait for a text to appear in it (or the test's own timeout). */
function reader(stream: NodeJS.ReadableStream) {
  let said = ''
  const waiting: { text: string; done: () => void }[] = []
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    said += chunk
    for (const wait of waiting.filter((each) => said.includes(each.text))) {
      waiting.splice(waiting.indexOf(wait), 1)
      wait.done()
    }
  })
  const times = (text: string) => said.split(text).length - 1
  return {
    said: () => said,
    until: (text: string) =>
      said.includes(text) ? Promise.resolve() : new Promise<void>((done) => waiting.push({ text, done })),
    /** Waits until `text` has appeared `count` times in all. */
    async untilTimes(text: string, count: number) {
      while (times(text) < count) await new Promise((done) => setTimeout(done, 50))
    },
  }
}

it('reloads the spore on save, and says where a broken save is wrong', async () => {
  expect(scaffoldSpore({ kind: 'enzyme', name: 'hello-dev', folder }).ok).toBe(true)
  child = spawn(process.execPath, ['--no-install', MAIN, 'dev', folder], {
    env: { ...process.env, NO_COLOR: '1', MYCELO_LOG_LEVEL: 'error' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const out = reader(child.stdout!)
  const err = reader(child.stderr!)
  await err.until('Ctrl-C stops.')
  expect(err.said()).toContain(`hello-dev runs from ${folder}`)

  child.stdin!.write('/hello Ada\n')
  await out.until('Hello, Ada! That is the first hello.')

  const source = join(folder, 'src', 'index.ts')
  const original = readFileSync(source, 'utf8')
  writeFileSync(source, original.replace("text: ctx.t('hello'", "text: '[edited] ' + ctx.t('hello'"))
  await err.until('hello-dev is reloaded.')
  child.stdin!.write('/hello Ada\n')
  // The new module answers; the count kept in storage carries across the reload.
  await out.until('[edited] Hello, Ada! That makes 2 hellos.')

  writeFileSync(source, `${original}\nconst broken = (;\n`)
  await err.until('The running version stays as it was.')
  const refusal = err
    .said()
    .split('\n')
    .find((line) => line.includes('was not reloaded'))!
  expect(refusal).toMatch(/ src\/index\.ts:\d+:\d+: Unexpected ;/)
  expect(err.said()).not.toContain('?v=')
  child.stdin!.write('/hello Ada\n')
  await out.until('[edited] Hello, Ada! That makes 3 hellos.')

  // The other load errors name the spot too: a module that throws as it loads (here one the
  // module imports, so the stack's frame is that file's), and an import of a file that is not there.
  const refusals = () =>
    err
      .said()
      .split('\n')
      .filter((line) => line.includes('was not reloaded'))
  writeFileSync(
    join(folder, 'src', 'greeting.ts'),
    "export const greeting = 'hi'\nthrow new Error('no greeting today')\n",
  )
  writeFileSync(source, `import { greeting } from './greeting.ts'\nvoid greeting\n${original}`)
  await err.untilTimes('The running version stays as it was.', 2)
  expect(refusals()[1]).toMatch(/ src\/greeting\.ts:2:\d+: no greeting today/)
  writeFileSync(source, `import { missing } from './missing.ts'\nvoid missing\n${original}`)
  await err.untilTimes('The running version stays as it was.', 3)
  expect(refusals()[2]).toMatch(/ src\/index\.ts:1:\d+: .*missing\.ts/)
  expect(err.said()).not.toContain('?v=')
  child.stdin!.write('/hello Ada\n')
  await out.until('[edited] Hello, Ada! That makes 4 hellos.')

  const exited = new Promise<number | null>((done) => child!.once('exit', done))
  child.kill('SIGINT')
  expect(await exited).toBe(0)
}, 60_000)
