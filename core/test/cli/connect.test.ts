// `bun run mycelo connect discord|signal`. Discord: the token is checked against Discord (the loopback fake that
// speaks its REST API) before anything is stored; a wrong token and an unreachable Discord are
// refused in words, storing nothing; a good one is stored as a secret and the channel enabled, and
// the bot then connects with it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type FakeDiscord, startFakeDiscord } from '../../../spores/discord/test/fake/index.ts'
import { FakeDaemon } from '../../../spores/signal/test/fake/daemon.ts'
import { FakeRestApi } from '../../../spores/signal/test/fake/rest-api.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { ROOT, runBun, runCli, startBoot } from '../boot/process.ts'
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
function connect(config: string, channel: string, typed: string, args: readonly string[] = []) {
  return runBun(
    ['core/cli/main.ts', 'connect', channel, ...args],
    { ...process.env, MYCELO_CONFIG: config },
    { typed },
  )
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
      `discord is connected: the service knows the bot as ${fake.world.bot.username}. Its settings are stored, a token as a secret, and it is enabled; it starts when the bot starts.\n`,
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
      'There is no way to connect carrier-pigeon in one step; these channels have one: discord, signal, telegram, matrix.\n',
    )
  }, 60_000)
})

describe('connect signal', () => {
  it('asks the daemon at the address given which accounts it holds, and sets the hypha to the one there is', async () => {
    const daemon = FakeDaemon.start()
    try {
      const { config, database } = bot()
      const answer = await connect(config, 'signal', '', [daemon.tcpAddress])
      expect(answer.stderr).toBe('')
      expect(answer.code).toBe(0)
      expect(answer.stdout).toStartWith(
        `signal is connected: the service knows the bot as ${daemon.account}.`,
      )
      const store = openStore({ path: database })
      const plugins = createPluginStore(store)
      expect(plugins.settingsWithFlags('signal')).toEqual({
        account: { value: daemon.account, secret: false },
        transport: { value: 'jsonrpc', secret: false },
        address: { value: daemon.tcpAddress, secret: false },
      })
      expect(plugins.installOf('signal')?.enabled).toBe(true)
      store.close()
      // By its socket too, naming the account it holds.
      const again = await connect(bot().config, 'signal', '', [daemon.socketPath, daemon.account])
      expect(again.code).toBe(0)
    } finally {
      daemon.close()
    }
  }, 60_000)

  it('finds the REST API container, and refuses an account it does not hold, naming the ones it does', async () => {
    const api = FakeRestApi.start({ mode: 'json-rpc' })
    try {
      const { config, database } = bot()
      const wrong = await connect(config, 'signal', '', [api.url, '+15550000000'])
      expect(wrong.code).toBe(1)
      expect(wrong.stderr).toBe(
        `signal-cli at ${api.url} holds these accounts: ${api.account}. Say which one the bot uses: bun run mycelo connect signal ${api.url} <account>. Nothing was stored.\n`,
      )
      const answer = await connect(config, 'signal', '', [api.url])
      expect(answer.code).toBe(0)
      const store = openStore({ path: database })
      expect(createPluginStore(store).settingsWithFlags('signal').transport).toEqual({
        value: 'rest',
        secret: false,
      })
      store.close()
    } finally {
      api.close()
    }
  }, 60_000)

  it('says where it looked when signal-cli is nowhere, storing nothing', async () => {
    const { config } = bot()
    const answer = await connect(config, 'signal', '', ['127.0.0.1:9'])
    expect(answer.code).toBe(1)
    expect(answer.stderr).toStartWith('signal-cli could not be found at 127.0.0.1:9. Start it')
  }, 60_000)
})
