// Every command the README and docs/ show still answers as shown. Blocks marked `mycelo-start`,
// `mycelo-chat` or `mycelo-cli` are run on a fresh bot, one per page, in the page's order; every
// other `bun run mycelo …` and chat command the pages show must at least be one the bot knows.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { parseArguments } from '../../cli/arguments.ts'
import { type Booted, ROOT, startBoot } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { type Block, blocksOf, documentFiles, patternOf, shellWords, stepsOf } from './blocks.ts'

const scratch = scratchFolder('docs-commands')
afterAll(() => scratch.remove())

const files = documentFiles(ROOT)
const blocks = files.flatMap((file) => blocksOf(ROOT, file))

/** A fresh bot's folder: the checkout's spores, its own database, a page on a free port. */
function freshBot(name: string): string {
  const folder = join(scratch.path, name.replace(/[^a-z0-9]+/gi, '-'))
  mkdirSync(folder, { recursive: true })
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(
    config,
    `spores: [${JSON.stringify(join(ROOT, 'spores'))}, data/spores]\ndatabase: data/mycelo.db\nhttp: { port: 0 }\n`,
  )
  return config
}

async function cli(config: string, words: readonly string[]): Promise<string> {
  const child = Bun.spawn(['bun', 'core/cli/main.ts', ...words], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MYCELO_CONFIG: config },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  return `${stdout}${stderr}`
}

async function waitForPattern(read: () => string, from: number, pattern: RegExp, what: string) {
  const deadline = Date.now() + 15_000
  while (!pattern.test(read().slice(from))) {
    if (Date.now() > deadline) {
      throw new Error(`${what} was not answered as shown. Expected:\n${pattern}\nGot:\n${read().slice(from)}`)
    }
    await Bun.sleep(25)
  }
}

/** Runs a page's marked blocks in order against one fresh bot. */
async function runPage(file: string, marked: readonly Block[]): Promise<void> {
  const config = freshBot(file)
  let bot: Booted | undefined
  let chatReady = false
  const stop = async () => {
    if (bot === undefined) return
    bot.child.kill('SIGTERM')
    await bot.exited()
    bot = undefined
  }
  try {
    for (const block of marked) {
      for (const step of stepsOf(block)) {
        const what = `${block.where}: ${step.input ?? 'the first start'}`
        if (block.mark === 'mycelo-start') {
          await stop()
          bot = startBoot(config)
          await bot.waitFor('Mycelo is running')
          await waitForPattern(bot.stdout, 0, patternOf(step.expected), what)
        } else if (block.mark === 'mycelo-chat') {
          if (!chatReady) {
            // The console reads a pipe only when told to: the test types as a person would.
            await stop()
            await cli(config, ['set', 'console', 'interactive', 'always'])
            chatReady = true
          }
          if (bot === undefined) {
            bot = startBoot(config)
            await bot.waitFor('Mycelo is running')
          }
          const from = bot.stdout().length
          bot.child.stdin.write(`${step.input}\n`)
          bot.child.stdin.flush()
          await waitForPattern(bot.stdout, from, patternOf(step.expected), what)
        } else {
          await stop()
          const words = shellWords(step.input!)
          expect(words.slice(0, 3), what).toEqual(['bun', 'run', 'mycelo'])
          const answer = await cli(config, words.slice(3))
          await waitForPattern(() => answer, 0, patternOf(step.expected), what)
        }
      }
    }
  } finally {
    await stop()
  }
}

describe('the commands the README and docs/ show', () => {
  const byFile = new Map<string, Block[]>()
  for (const block of blocks.filter((candidate) => candidate.mark !== undefined)) {
    const file = block.where.split(':')[0]!
    byFile.set(file, [...(byFile.get(file) ?? []), block])
  }

  it('runs some, so the marks are not forgotten', () => {
    expect(byFile.get('README.md')?.length ?? 0).toBeGreaterThan(0)
  })

  for (const [file, marked] of byFile) {
    it(`answer as ${file} shows`, () => runPage(file, marked), 120_000)
  }

  it('name only commands the command line understands, with arguments it takes', () => {
    const shown = files.flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8')
      return [...text.matchAll(/bun run mycelo( [^`\n#]*)?/g)].map((match) => ({
        file,
        words: shellWords((match[1] ?? '').trim()),
      }))
    })
    expect(shown.length).toBeGreaterThan(10)
    const misunderstood = shown
      .filter(({ words }) => !parseArguments(words).ok)
      .map(({ file, words }) => `${file}: bun run mycelo ${words.join(' ')}`)
    expect(misunderstood).toEqual([])
  })

  it('name only chat commands a first-party or official spore offers', () => {
    const offered = new Set<string>()
    for (const folder of ['spores', 'sporangia/official']) {
      for (const name of readdirSync(join(ROOT, folder))) {
        let manifest: { name?: string; commands?: { name: string }[] }
        try {
          manifest = parse(readFileSync(join(ROOT, folder, name, 'spore.yaml'), 'utf8'))
        } catch {
          continue
        }
        for (const command of manifest.commands ?? []) {
          offered.add(command.name)
          offered.add(`${manifest.name}.${command.name}`)
        }
      }
    }
    const unknown: string[] = []
    // A marked block is run for real (and may show a mistyped command on purpose).
    for (const block of blocks) {
      if (block.mark !== undefined || !['', 'text'].includes(block.info.split(/\s+/)[0]!)) continue
      for (const line of block.lines) {
        const name = /^\/([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)?)(?=\s|$)/.exec(line)?.[1]
        if (name !== undefined && !offered.has(name)) unknown.push(`${block.where}: /${name}`)
      }
    }
    expect(unknown).toEqual([])
  })
})
