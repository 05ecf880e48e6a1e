// `bun run mycelo connect discord`: the token is checked against Discord (the loopback fake that
// speaks its REST API) before anything is stored; a wrong token and an unreachable Discord are
// refused in words, storing nothing; a good one is stored as a secret and the channel enabled, and
// the bot then connects with it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type FakeDiscord, startFakeDiscord } from '../../../spores/discord/test/fake/index.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { ROOT, runCli, startBoot } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('cli-connect')
let fake: FakeDiscord
beforeAll(() => {
  fake = startFakeDiscord()
})
afterAll(async () => {
  await fake.stop()
  scratch.remove()
})

let count = 0
function bot(): { config: string; database: string } {
  const folder = join(scratch.path, `bot-${++count}`)
  mkdirSync(folder, { recursive: true })
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(
    config,
    `spores: [${JSON.stringify(join(ROOT, 'spores'))}]\ndatabase: data/mycelo.db\nhttp: { enabled: false }\n`,
  )
  return { config, database: join(folder, 'data', 'mycelo.db') }
}

/** `bun run mycelo connect <channel>` with `typed` on its standard input. */
async function connect(config: string, channel: string, typed: string) {
  const child = Bun.spawn(['bun', 'core/cli/main.ts', 'connect', channel], {
    cwd: ROOT,
    env: { ...process.env, MYCELO_CONFIG: config },
    stdin: new TextEncoder().encode(typed),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  return { stdout, stderr, code }
}

function discordSettings(database: string) {
  const store = openStore({ path: database })
  try {
    const plugins = createPluginStore(store)
    return { settings: plugins.settingsWithFlags('discord'), install: plugins.installOf('discord') }
  } finally {
    store.close()
  }
}

describe('connect discord', () => {
  it('refuses a token Discord refuses, storing nothing', async () => {
    const { config, database } = bot()
    expect((await runCli(['set', 'discord', 'apiBaseUrl', fake.restApi], config)).code).toBe(0)
    const answer = await connect(config, 'discord', 'not-the-token\n')
    expect(answer.code).toBe(1)
    expect(answer.stderr).toBe(
      'Discord refused this token (HTTP 401): it is wrong, or it was reset. Copy it again: Discord Developer Portal → your application → Bot → Reset Token. Nothing was stored.\n',
    )
    const { settings, install } = discordSettings(database)
    expect(settings.token).toBeUndefined()
    expect(install?.enabled).toBe(false)
  }, 60_000)

  it('says so when Discord cannot be reached, storing nothing', async () => {
    const { config, database } = bot()
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
    const address = `http://127.0.0.1:${closed.port}/api`
    closed.stop(true)
    expect((await runCli(['set', 'discord', 'apiBaseUrl', address], config)).code).toBe(0)
    const answer = await connect(config, 'discord', `${fake.token}\n`)
    expect(answer.code).toBe(1)
    expect(answer.stderr).toStartWith(`Discord could not be reached at ${address}/v10/users/@me (`)
    expect(answer.stderr).toEndWith(
      "Check this machine's connection to the internet, then try again. Nothing was stored.\n",
    )
    expect(discordSettings(database).settings.token).toBeUndefined()
  }, 60_000)

  it('stores a good token as a secret, enables the channel, and the bot connects with it', async () => {
    const { config, database } = bot()
    expect((await runCli(['set', 'discord', 'apiBaseUrl', fake.restApi], config)).code).toBe(0)
    const answer = await connect(config, 'discord', `${fake.token}\n`)
    expect(answer.stderr).toBe('')
    expect(answer.code).toBe(0)
    expect(answer.stdout).toBe(
      `discord is connected: the service knows the bot as ${fake.world.bot.username}. Its settings are stored (the token as a secret) and it is enabled; it starts when the bot starts.\n`,
    )
    const { settings, install } = discordSettings(database)
    expect(settings.token).toEqual({ value: fake.token, secret: true })
    expect(install?.enabled).toBe(true)

    const boot = startBoot(config)
    try {
      const report = await boot.waitFor('Mycelo is running')
      expect(report).toMatch(/ {2}discord +\S+ +live/)
    } finally {
      boot.child.kill('SIGTERM')
      await boot.exited()
    }
  }, 60_000)

  it('names the channels it can connect when asked for another', async () => {
    const { config } = bot()
    const answer = await connect(config, 'carrier-pigeon', '')
    expect(answer.code).toBe(1)
    expect(answer.stderr).toBe(
      'There is no way to connect carrier-pigeon in one step; these channels have one: discord.\n',
    )
  }, 60_000)
})
