import { afterAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createPluginStore, openStore } from '../../store/index.ts'
import { scratchFolder } from '../store/scratch.ts'
import { needyHypha, probeHypha, respondEnzyme } from './fixtures.ts'
import { ROOT, startBoot } from './process.ts'

const scratch = scratchFolder('boot-run')
afterAll(() => scratch.remove())

let count = 0
function setUp(): { folder: string; spores: string; config: string; database: string } {
  const folder = join(scratch.path, `case-${++count}`)
  const spores = join(folder, 'spores')
  mkdirSync(spores, { recursive: true })
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(config, 'spores: [spores]\ndatabase: data/mycelo.db\n')
  return { folder, spores, config, database: join(folder, 'data', 'mycelo.db') }
}

const journal = (spore: string) => readFileSync(join(spore, 'journal.txt'), 'utf8').trimEnd().split('\n')

describe('a running boot', () => {
  it('prints the report, stays up, and on SIGTERM stops its spores and exits 0', async () => {
    const { spores, config } = setUp()
    const probe = probeHypha(spores)
    respondEnzyme(spores, 'echo')
    const boot = startBoot(config)
    const printed = await boot.waitFor('Mycelo is running')
    expect(printed).toContain('Germination report: 2 spores')
    expect(printed).toMatch(/ {2}probe +channel +live +(inline|worker)\n/)
    expect(printed).toContain('Mycelo is running: 2 of 2 spores live.')
    expect(boot.child.exitCode).toBeNull()
    expect(journal(probe)).toEqual(['connect hello', 'listen'])

    boot.child.kill('SIGTERM')
    expect(await boot.exited()).toBe(0)
    expect(boot.stdout()).toContain('Stopping (SIGTERM)')
    expect(boot.stdout()).toContain('Stopped.')
    expect(journal(probe)).toEqual(['connect hello', 'listen', 'stop'])
  })

  it('keeps enabled states and settings across a restart, reading the same database', async () => {
    const { spores, config, database } = setUp()
    const probe = probeHypha(spores)
    const needy = needyHypha(spores)
    const first = startBoot(config)
    const report = await first.waitFor('Mycelo is running')
    expect(report).toMatch(
      / {2}needy +channel +disabled +(?:(?:inline|worker) +)?configuration is incomplete: token: /,
    )
    first.child.kill('SIGTERM')
    expect(await first.exited()).toBe(0)

    // Between runs an operator fixes needy's settings, enables it, changes probe's, and a spore arrives.
    const store = openStore({ path: database })
    const plugins = createPluginStore(store)
    expect(plugins.installOf('probe')).toEqual({ enabled: true, reason: null })
    expect(plugins.installOf('needy')?.enabled).toBe(false)
    plugins.setSetting('needy', 'token', 'abcdef')
    plugins.recordInstall('needy', { enabled: true, reason: null })
    plugins.setSetting('probe', 'greeting', 'bonjour')
    store.close()
    respondEnzyme(spores, 'late')

    const second = startBoot(config)
    const again = await second.waitFor('Mycelo is running')
    expect(again).toMatch(
      / {2}late +commands +disabled +(?:(?:inline|worker) +)?new: enable it to start it\n/,
    )
    expect(again).toMatch(/ {2}needy +channel +live +(inline|worker)\n/)
    expect(again).toMatch(/ {2}probe +channel +live +(inline|worker)\n/)
    expect(journal(needy)).toEqual(['connect 6'])
    expect(journal(probe)).toEqual(['connect hello', 'listen', 'stop', 'connect bonjour', 'listen'])
    second.child.kill('SIGINT')
    expect(await second.exited()).toBe(0)
  })

  it('never logs a secret setting, even when a spore logs it', async () => {
    const { spores, config, database } = setUp()
    probeHypha(spores)
    const store = openStore({ path: database })
    createPluginStore(store).setSetting('probe', 'token', 'tok-5f2e9a77', { secret: true })
    store.close()
    const boot = startBoot(config)
    await boot.waitFor('Mycelo is running')
    boot.child.kill('SIGTERM')
    expect(await boot.exited()).toBe(0)
    const logged = boot
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((entry) => entry.spore === 'probe' && String(entry.msg).startsWith('connecting'))
    expect(logged).toMatchObject({ msg: 'connecting with token ••••', token: '••••' })
    expect(boot.stdout() + boot.stderr()).not.toContain('tok-5f2e9a77')
  })

  it('exits at once on a second signal while a spore is still stopping', async () => {
    const { spores, config, database } = setUp()
    const probe = probeHypha(spores)
    const store = openStore({ path: database })
    createPluginStore(store).setSetting('probe', 'hang', true)
    store.close()
    const boot = startBoot(config)
    await boot.waitFor('Mycelo is running')
    boot.child.kill('SIGTERM')
    await boot.waitFor('Stopping (SIGTERM)')
    while (!journal(probe).includes('stop')) await Bun.sleep(20)
    boot.child.kill('SIGTERM')
    expect(await boot.exited()).toBe(1)
    expect(boot.stdout()).not.toContain('Stopped.')
  })

  it('carries a line typed at the console through the core and prints the answer', async () => {
    const { spores, config, database } = setUp()
    cpSync(join(ROOT, 'spores', 'console', 'spore.yaml'), join(spores, 'console', 'spore.yaml'))
    cpSync(join(ROOT, 'spores', 'console', 'src'), join(spores, 'console', 'src'), { recursive: true })
    const store = openStore({ path: database })
    createPluginStore(store).setSetting('console', 'interactive', 'always')
    store.close()
    const boot = startBoot(config, { MYCELO_LOG_LEVEL: 'debug' })
    await boot.waitFor('Mycelo is running')
    boot.child.stdin.write('/help\n')
    boot.child.stdin.flush()
    // No help spore is installed here: the whole path runs and the core's own answer is printed.
    await boot.waitFor("I don't know the command /help")
    boot.child.kill('SIGTERM')
    expect(await boot.exited()).toBe(0)
  })
})
