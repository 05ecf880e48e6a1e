import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPluginStore, openStore } from '../../store/index.ts'
import { scratchFolder } from '../store/scratch.ts'
import { runBoot, startBoot, writeSpore } from './process.ts'

const scratch = scratchFolder('process-end')
afterAll(() => scratch.remove())

let count = 0
function setUp(): { folder: string; spores: string; config: string } {
  const folder = join(scratch.path, `case-${++count}`)
  const spores = join(folder, 'spores')
  mkdirSync(spores, { recursive: true })
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(
    config,
    'spores: [spores]\ndatabase: data/mycelo.db\nowner: { channel: talker, userId: owner }\n',
  )
  return { folder, spores, config }
}

const enzyme = (name: string, module: string) => ({
  'spore.yaml': `kind: enzyme\nname: ${name}\nseptum: "^1.0"\ncommands:\n  - { name: ${name}, description: d, code: run }\n`,
  'src/index.ts': module,
})

/** A hypha that says `/quit` as the owner once listening, and writes what it is sent to sent.txt. */
const TALKER = {
  'spore.yaml': 'kind: hypha\nname: talker\nseptum: "^1.0"\ncapabilities: []\n',
  'src/index.ts': `
import { appendFileSync } from 'node:fs'
const sent = new URL('../sent.txt', import.meta.url)
export default {
  create() {
    let ctx
    return {
      async connect(c) { ctx = c },
      async listen() {
        ctx.emit({ channel: 'talker', conversationId: 'c', messageId: 'm1', sender: { channel: 'talker', externalId: 'owner' },
          text: '/quit', attachments: [], raw: null, receivedAt: new Date() })
      },
      async stop() {},
      async send(_conversation, content) { appendFileSync(sent, (content.text ?? '') + '\\n') },
    }
  },
}
`,
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`)
    await Bun.sleep(20)
  }
}

describe('only the core ends the process', () => {
  it('refuses process.exit, abort and a signal to itself from a spore: that spore faults, the bot runs on', async () => {
    const { spores, config } = setUp()
    writeSpore(spores, 'talker', TALKER)
    writeSpore(
      spores,
      'at-import',
      enzyme('at-import', 'process.exit(3)\nexport default { create: () => ({ handlers: { run() {} } }) }\n'),
    )
    writeSpore(
      spores,
      'in-create',
      enzyme('in-create', 'export default { create() { process.reallyExit(4) } }\n'),
    )
    writeSpore(
      spores,
      'by-signal',
      enzyme('by-signal', "export default { create() { process.kill(process.pid, 'SIGKILL') } }\n"),
    )
    writeSpore(
      spores,
      'quit',
      enzyme('quit', 'export default { create: () => ({ handlers: { run() { process.abort() } } }) }\n'),
    )
    const boot = startBoot(config)
    const report = await boot.waitFor('Mycelo is running')
    expect(report).toMatch(
      /at-import +commands +disabled +.*process\.exit\(3\) is refused: only the core ends the bot/,
    )
    expect(report).toMatch(
      /in-create +commands +dormant +inline +create\(\) failed: process\.reallyExit\(4\) is refused/,
    )
    expect(report).toMatch(
      /by-signal +commands +dormant +inline +create\(\) failed: process\.kill\(\d+, SIGKILL\) is refused/,
    )
    expect(report).toMatch(/quit +commands +live/)
    const sentFile = join(spores, 'talker', 'sent.txt')
    await until(() => existsSync(sentFile), 'the handler that called process.abort() was answered')
    expect(readFileSync(sentFile, 'utf8')).toContain('/quit')
    expect(boot.child.exitCode).toBeNull()
    expect(boot.stdout()).toContain('a spore tried to end the process; refused')
    expect(boot.stdout()).toContain('process.abort()')

    boot.child.kill('SIGTERM')
    expect(await boot.exited()).toBe(0)
  })
})

describe('an interrupted first start', () => {
  it('leaves every discovered spore recorded, so the next start decides as an uninterrupted one would', async () => {
    const { folder, spores, config } = setUp()
    // Modules import in dependency order, then by name: a-fine, then m-hang, which announces itself
    // and never finishes, so wall's module is never reached.
    writeSpore(
      spores,
      'a-fine',
      enzyme('a-fine', 'export default { create: () => ({ handlers: { run() {} } }) }\n'),
    )
    const hang = writeSpore(
      spores,
      'm-hang',
      enzyme(
        'm-hang',
        "import { writeFileSync } from 'node:fs'\nwriteFileSync(new URL('../importing', import.meta.url), 'yes')\nawait new Promise(() => {})\nexport default { create: () => ({ handlers: { run() {} } }) }\n",
      ),
    )
    writeSpore(spores, 'wall', {
      'spore.yaml': 'kind: inhibitor\nname: wall\nseptum: "^1.0"\nenforcing: true\n',
      'src/index.ts': 'export default { create: () => ({ inspect: () => ({ allow: true }) }) }\n',
    })
    const boot = startBoot(config)
    await until(() => existsSync(join(hang, 'importing')), 'the first module began importing')
    boot.child.kill('SIGKILL')
    await boot.exited()

    const store = openStore({ path: join(folder, 'data', 'mycelo.db') })
    const plugins = createPluginStore(store)
    expect(plugins.installOf('wall')?.enabled).toBe(true)
    expect(plugins.installOf('m-hang')?.enabled).toBe(true)
    expect(plugins.installOf('a-fine')?.enabled).toBe(true)
    expect(plugins.memoryOf('wall')).toEqual({ kind: 'inhibitor', enforcing: true, settled: false })
    store.close()

    writeFileSync(join(hang, 'src', 'index.ts'), 'export default { create: () => ({ handlers: {} }) }\n')
    const checked = await runBoot(['--check', '--json'], config)
    const lines = JSON.parse(checked.stdout).spores as { name: string; state: string; reason?: string }[]
    expect(lines.find((line) => line.name === 'wall')).toMatchObject({ state: 'live' })
    // Decided as a first start would: each spore checked, the guard enabled and live.
    const restarted = startBoot(config)
    const report = await restarted.waitFor('Mycelo is running')
    expect(report).toMatch(/wall +filter +live/)
    expect(report).toMatch(
      /m-hang +commands +dormant +inline +the enzyme implementation lacks a handler "run"/,
    )
    restarted.child.kill('SIGTERM')
    expect(await restarted.exited()).toBe(0)
  })
})

describe('a spore importing a package it does not ship', () => {
  it('fails to load, and nothing is fetched from a registry for it', async () => {
    // Outside the checkout, where no node_modules above it would stop Bun installing on import.
    const outside = mkdtempSync(join(tmpdir(), 'mycelo-fetch-'))
    const spores = join(outside, 'spores')
    const config = join(outside, 'mycelo.yaml')
    writeFileSync(config, 'spores: [spores]\ndatabase: data/mycelo.db\n')
    writeSpore(
      spores,
      'fetcher',
      enzyme(
        'fetcher',
        "import isEven from 'is-even'\nexport default { create: () => ({ handlers: { run: () => isEven(2) } }) }\n",
      ),
    )
    const checked = await runBoot(['--check', '--json'], config)
    const lines = JSON.parse(checked.stdout).spores as { name: string; reason?: string }[]
    rmSync(outside, { recursive: true, force: true })
    expect(lines.find((line) => line.name === 'fetcher')?.reason).toContain("Cannot find package 'is-even'")
  })
})
