// The companion beside a running bot, both real processes: its writes refuse naming the bot, its
// reads go ahead, and once the bot has stopped the same write goes through.
import { afterAll, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createPluginStore, openStore } from '../../store/index.ts'
import { respondEnzyme } from '../boot/fixtures.ts'
import { runCli, startBoot } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('cli-beside')
afterAll(() => scratch.remove())

it('refuses to write while a bot holds the database, reads beside it, and writes once it stops', async () => {
  const spores = join(scratch.path, 'spores')
  mkdirSync(spores, { recursive: true })
  respondEnzyme(spores, 'echo')
  const config = join(scratch.path, 'mycelo.yaml')
  writeFileSync(
    config,
    'spores: [spores]\ndatabase: data/mycelo.db\nowner: { channel: chat, userId: boss }\n',
  )
  const database = join(scratch.path, 'data', 'mycelo.db')
  const enabled = () => {
    const store = openStore({ path: database })
    try {
      return createPluginStore(store).installOf('echo')?.enabled
    } finally {
      store.close()
    }
  }

  const bot = startBoot(config)
  await bot.waitFor('Mycelo is running')
  const pid = bot.child.pid
  const refused = await runCli(['disable', 'echo'], config)
  expect(refused.code).toBe(1)
  expect(refused.stderr).toContain(
    `Nothing was changed: another Mycelo is already using the database ${database}: process ${pid}, started at `,
  )
  expect(refused.stderr).toContain('Stop that bot first, or make the change in chat.')
  expect(enabled()).toBe(true)
  // An install writes a folder and a row: it waits for the bot too, before fetching anything.
  const install = await runCli(['install', 'official', 'echo'], config)
  expect(install.code).toBe(1)
  expect(install.stderr).toContain('Stop that bot first, or make the change in chat.')
  const sources = await runCli(['sources'], config)
  expect(sources.code).toBe(0)
  expect(sources.stdout).toStartWith('official — ')

  const roles = await runCli(['roles'], config)
  expect(roles).toMatchObject({ code: 0, stdout: 'member: admin.lang help.*\nowner: * (built in)\n' })
  const status = await runCli(['status'], config)
  expect(status.code).toBe(0)
  expect(status.stdout).toContain(`A bot is running on this database: process ${pid}, started at `)

  bot.child.kill('SIGTERM')
  expect(await bot.exited()).toBe(0)
  expect((await runCli(['disable', 'echo'], config)).code).toBe(0)
  expect(enabled()).toBe(false)
})
