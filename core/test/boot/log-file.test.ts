import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createLogging } from '../../boot/log.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { scratchFolder } from '../store/scratch.ts'
import { probeHypha, respondEnzyme } from './fixtures.ts'
import { startBoot } from './process.ts'

const scratch = scratchFolder('log-file')
afterAll(() => scratch.remove())

const jsonLines = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('logging to a file', () => {
  it('rotates by size, keeps the files asked for, and masks secrets in every one', () => {
    const terminal: string[] = []
    const logging = createLogging({ pretty: true, output: { write: (text) => terminal.push(text) } })
    logging.setSecrets(['tok-8c1d22e0'])
    const file = join(scratch.path, 'rotation', 'mycelo.log')
    logging.toFile({ file, maxBytes: 2000, keep: 2 })
    for (let n = 1; n <= 100; n++) logging.logger.info(`line ${n} with tok-8c1d22e0`, { n })

    expect(terminal).toEqual([])
    expect(existsSync(`${file}.3`)).toBe(false)
    const parts = [`${file}.2`, `${file}.1`, file]
    for (const part of parts) expect(statSync(part).size).toBeLessThanOrEqual(2000)
    // Oldest to newest, the kept lines follow each other without a gap, ending with the last one.
    const kept = parts.flatMap(jsonLines)
    const numbers = kept.map((line) => line.n as number)
    expect(numbers.at(-1)).toBe(100)
    expect(numbers).toEqual(numbers.map((_, index) => numbers[0]! + index))
    expect(numbers[0]).toBeGreaterThan(1)
    for (const line of kept) expect(line.msg).toBe(`line ${line.n} with ••••`)
  })

  it('starts the file afresh when no rotated file is to be kept, and appends to one already there', () => {
    const file = join(scratch.path, 'fresh', 'mycelo.log')
    mkdirSync(join(scratch.path, 'fresh'))
    writeFileSync(file, `${JSON.stringify({ msg: 'from before' })}\n`)
    const logging = createLogging({ output: { write: () => undefined } })
    logging.toFile({ file, maxBytes: 4096, keep: 0 })
    logging.logger.info('after a restart')
    expect(jsonLines(file).map((line) => line.msg)).toEqual(['from before', 'after a restart'])
    for (let n = 0; n < 100; n++) logging.logger.info('filler', { n })
    expect(existsSync(`${file}.1`)).toBe(false)
    expect(jsonLines(file).some((line) => line.msg === 'from before')).toBe(false)
  })

  it('loses no line when a rotation fails: it goes on in the same file', () => {
    const file = join(scratch.path, 'stuck', 'mycelo.log')
    // Where the rotated file should go stands a folder with something in it: the rename fails.
    mkdirSync(join(`${file}.1`, 'in-the-way'), { recursive: true })
    const logging = createLogging({ output: { write: () => undefined } })
    logging.toFile({ file, maxBytes: 2000, keep: 1 })
    for (let n = 1; n <= 100; n++) logging.logger.info('line', { n })
    expect(jsonLines(file).map((line) => line.n)).toEqual(
      Array.from({ length: 100 }, (_, index) => index + 1),
    )
  })

  it("keeps the running bot's terminal to the report and the chat, its log lines in the file", async () => {
    const folder = join(scratch.path, 'bot')
    const spores = join(folder, 'spores')
    mkdirSync(spores, { recursive: true })
    probeHypha(spores)
    respondEnzyme(spores, 'echo')
    const config = join(folder, 'mycelo.yaml')
    writeFileSync(
      config,
      'spores: [spores]\ndatabase: data/mycelo.db\nlog: { file: logs/mycelo.log, maxBytes: 65536, keep: 1 }\n',
    )
    const store = openStore({ path: join(folder, 'data', 'mycelo.db') })
    createPluginStore(store).setSetting('probe', 'token', 'tok-5f2e9a77', { secret: true })
    store.close()
    const boot = startBoot(config)
    await boot.waitFor('Mycelo is running')
    boot.child.kill('SIGTERM')
    expect(await boot.exited()).toBe(0)

    const log = join(folder, 'logs', 'mycelo.log')
    expect(boot.stdout().split('\n')).toEqual([
      `Logs go to ${log}.`,
      'Germination report: 2 spores',
      expect.stringMatching(/^ {2}echo +commands +live +inline$/),
      expect.stringMatching(/^ {2}probe +channel +live +inline$/),
      'Mycelo is running: 2 of 2 spores live. Stop it with Ctrl+C.',
      'Stopping (SIGTERM); press Ctrl+C again to quit at once.',
      'Stopped.',
      '',
    ])
    expect(boot.stderr()).toBe('')
    const lines = jsonLines(log)
    expect(lines.find((line) => line.spore === 'probe' && line.token !== undefined)).toMatchObject({
      msg: 'connecting with token ••••',
      token: '••••',
    })
    expect(readFileSync(log, 'utf8')).not.toContain('tok-5f2e9a77')
  })
})
