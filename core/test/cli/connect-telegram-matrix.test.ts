// `bun run mycelo connect telegram` and `connect matrix <homeserver>`: the token is checked against
// the loopback fakes that speak the Bot API and the client-server API before anything is stored; a
// wrong token and an unreachable service are refused in words, storing nothing; a good one is
// stored as a secret and the channel enabled, and the bot then connects with it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type FakeMatrix, startFakeMatrix } from '../../../sporangia/official/matrix/test/fake/index.ts'
import { type FakeTelegram, startFakeTelegram } from '../../../sporangia/official/telegram/test/fake/index.ts'
import { createPluginStore, openStore } from '../../store/index.ts'
import { ROOT, runCli, startBoot, writeSpore } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { realSpore } from '../support/real-spores.ts'

const scratch = scratchFolder('cli-connect-channels')
let telegram: FakeTelegram
let matrix: FakeMatrix
beforeAll(() => {
  telegram = startFakeTelegram()
  matrix = startFakeMatrix()
})
afterAll(async () => {
  await telegram.stop()
  await matrix.stop()
  scratch.remove()
})

let count = 0
/** A bot whose spores folder holds the two channels as an install from the official index would. */
function bot(): { config: string; database: string } {
  const folder = join(scratch.path, `bot-${++count}`)
  const spores = join(folder, 'spores')
  mkdirSync(spores, { recursive: true })
  for (const name of ['telegram', 'matrix'])
    writeSpore(spores, name, realSpore(join(ROOT, 'sporangia', 'official', name)))
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(
    config,
    `spores: [${JSON.stringify(spores)}]\ndatabase: data/mycelo.db\nhttp: { enabled: false }\n`,
  )
  return { config, database: join(folder, 'data', 'mycelo.db') }
}

async function connect(config: string, args: readonly string[], typed: string) {
  const child = Bun.spawn(['bun', 'core/cli/main.ts', 'connect', ...args], {
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

function stored(database: string, spore: string) {
  const store = openStore({ path: database })
  try {
    const plugins = createPluginStore(store)
    return { settings: plugins.settingsWithFlags(spore), install: plugins.installOf(spore) }
  } finally {
    store.close()
  }
}

describe('connect telegram', () => {
  it('refuses a token Telegram refuses, storing nothing, and never says the token back', async () => {
    const { config, database } = bot()
    expect((await runCli(['set', 'telegram', 'apiRoot', telegram.apiRoot], config)).code).toBe(0)
    const answer = await connect(config, ['telegram'], '700000001:AAWrongWrongWrongWrongWrongWrongWr\n')
    expect(answer.code).toBe(1)
    expect(answer.stderr).toBe(
      'Telegram refused this token (HTTP 401): it is wrong, or it was revoked. Copy it again: in a chat with @BotFather, /mybots → your bot → API Token. Nothing was stored.\n',
    )
    expect(stored(database, 'telegram').settings.token).toBeUndefined()
  }, 60_000)

  it('stores a good token as a secret, enables the channel, and the bot connects with it', async () => {
    const { config, database } = bot()
    expect((await runCli(['set', 'telegram', 'apiRoot', telegram.apiRoot], config)).code).toBe(0)
    const answer = await connect(config, ['telegram'], `${telegram.token}\n`)
    expect(answer.stderr).toBe('')
    expect(answer.stdout).toStartWith(
      `telegram is connected: the service knows the bot as @${telegram.world.bot.username}.`,
    )
    const { settings, install } = stored(database, 'telegram')
    expect(settings.token).toEqual({ value: telegram.token, secret: true })
    expect(install?.enabled).toBe(true)
    const boot = startBoot(config)
    try {
      expect(await boot.waitFor('Mycelo is running')).toMatch(/ {2}telegram +\S+ +live/)
    } finally {
      boot.child.kill('SIGTERM')
      await boot.exited()
    }
  }, 60_000)
})

describe('connect matrix', () => {
  it('wants the homeserver’s address, and refuses a token the homeserver refuses, storing nothing', async () => {
    const { config, database } = bot()
    const none = await connect(config, ['matrix'], 'syt_x\n')
    expect(none.code).toBe(1)
    expect(none.stderr).toStartWith("Give the homeserver's address after matrix")
    const wrong = await connect(config, ['matrix', matrix.homeserverUrl], 'syt_wrong\n')
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toBe(
      `${matrix.homeserverUrl} refused this access token (HTTP 401): it is wrong, or its session was logged out. Copy it again from a session kept for the bot (Element: Settings → Help & About → Access Token). Nothing was stored.\n`,
    )
    expect(stored(database, 'matrix').settings.accessToken).toBeUndefined()
  }, 60_000)

  it('says so when the homeserver cannot be reached', async () => {
    const { config } = bot()
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
    const address = `http://127.0.0.1:${closed.port}`
    closed.stop(true)
    const answer = await connect(config, ['matrix', address], 'syt_any\n')
    expect(answer.code).toBe(1)
    expect(answer.stderr).toStartWith(
      `The homeserver could not be reached at ${address}/_matrix/client/v3/account/whoami (`,
    )
  }, 60_000)

  it('stores the homeserver and the token (as a secret), enables the channel, and the bot connects', async () => {
    const { config, database } = bot()
    const answer = await connect(config, ['matrix', matrix.homeserverUrl], `${matrix.token}\n`)
    expect(answer.stderr).toBe('')
    expect(answer.stdout).toStartWith('matrix is connected: the service knows the bot as @bot:fake.local.')
    const { settings, install } = stored(database, 'matrix')
    expect(settings.accessToken).toEqual({ value: matrix.token, secret: true })
    expect(settings.homeserverUrl?.value).toBe(matrix.homeserverUrl)
    expect(install?.enabled).toBe(true)
    const boot = startBoot(config)
    try {
      expect(await boot.waitFor('Mycelo is running')).toMatch(/ {2}matrix +\S+ +live/)
    } finally {
      boot.child.kill('SIGTERM')
      await boot.exited()
    }
  }, 60_000)
})
