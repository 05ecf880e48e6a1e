// The command-line companion as an operator runs it, a real process over a real SQLite file and
// real spores, with the bot stopped: the recovery path that needs no SQLite editing.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { coreCatalogues, coreText } from '../../boot/catalogues.ts'
import { COMMANDS } from '../../cli/arguments.ts'
import { RestrictionBook } from '../../rhizomorph/restrictions.ts'
import { createPluginStore, ensurePrincipal, openStore, roleNamesOf, type Store } from '../../store/index.ts'
import { needyHypha, respondEnzyme } from '../boot/fixtures.ts'
import { runBoot, runCli } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'

const scratch = scratchFolder('cli')
const english = coreText(coreCatalogues().core, 'en')
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
afterAll(() => scratch.remove())

let count = 0
/** A bot's folder: echo and needy spores, the owner chat:boss, and a database that may not exist yet. */
function setUp(extra = ''): { config: string; spores: string; database: string } {
  const folder = join(scratch.path, `case-${++count}`)
  const spores = join(folder, 'spores')
  mkdirSync(spores, { recursive: true })
  respondEnzyme(spores, 'echo')
  needyHypha(spores)
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(
    config,
    `spores: [spores]\ndatabase: data/mycelo.db\nowner: { channel: chat, userId: boss }\n${extra}`,
  )
  return { config, spores, database: join(folder, 'data', 'mycelo.db') }
}

/** Opens the bot's database the way a start would, for the test's own reads and seeds. */
function withStore<T>(database: string, work: (store: Store) => T): T {
  const store = openStore({ path: database })
  try {
    return work(store)
  } finally {
    store.close()
  }
}

const idOf = (database: string, externalId: string) =>
  withStore(database, (store) => ensurePrincipal(store, { channel: 'chat', externalId }).id)

describe('the companion’s arguments', () => {
  it('lists every command with --help, each with its words, and exits 0', async () => {
    const { config } = setUp()
    const help = await runCli(['--help'], config)
    expect(help.code).toBe(0)
    // Every command the companion parses, agent-key included, is on a line of its own with what it does.
    for (const command of COMMANDS) {
      const words = english(`cli.command.${command.name}`)
      expect(words, command.name).not.toStartWith('cli.')
      expect(help.stdout, command.name).toMatch(
        new RegExp(`\\n {2}${escaped(command.synopsis)}\\s+${escaped(words)}\\n`),
      )
    }
    expect(help.stdout).toContain('\n  enable <spore>  ')
    expect(help.stdout).not.toContain('plugin')
  })

  it('exits 2 on an unknown command or missing arguments, saying what it expected', async () => {
    const { config } = setUp()
    const unknown = await runCli(['frobnicate'], config)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toBe(
      'Unknown command frobnicate. Run bun run mycelo --help to see the commands.\n',
    )
    const short = await runCli(['grant', 'chat:boss'], config)
    expect(short.code).toBe(2)
    expect(short.stderr).toBe('Usage: bun run mycelo grant <principal> <role>\n')
    expect((await runCli(['rules', 'clear'], config)).code).toBe(2)
  })
})

describe('roles from the command line', () => {
  it('grants and revokes as the operator, uncapped, naming people by channel:userId', async () => {
    const { config, database } = setUp()
    const friend = idOf(database, 'friend')
    const granted = await runCli(['grant', 'chat:friend', 'owner'], config)
    expect(granted).toMatchObject({ code: 0, stdout: `${friend} now holds the role owner.\n` })
    expect(withStore(database, (store) => roleNamesOf(store, friend))).toEqual(['owner'])
    expect((await runCli(['roles', 'chat:friend'], config)).stdout).toBe(`${friend} holds owner.\n`)
    const revoked = await runCli(['revoke', friend, 'owner'], config)
    expect(revoked).toMatchObject({ code: 0, stdout: `${friend} no longer holds the role owner.\n` })
    expect(withStore(database, (store) => roleNamesOf(store, friend))).toEqual([])
  })

  it('lists the roles with their patterns', async () => {
    const { config } = setUp()
    const roles = await runCli(['roles'], config)
    expect(roles).toMatchObject({ code: 0, stdout: 'member: admin.lang help.*\nowner: * (built in)\n' })
  })

  it('exits 1 with the translated refusal, in the configured language', async () => {
    const { config, database } = setUp('defaultLocale: fr\n')
    const boss = idOf(database, 'boss')
    const last = await runCli(['revoke', 'chat:boss', 'owner'], config)
    expect(last.code).toBe(1)
    expect(last.stderr).toContain(
      `«\u00a0${boss}\u00a0» est le dernier détenteur du rôle owner\u00a0: attribuez-le d’abord à quelqu’un d’autre.`,
    )
    const unknown = await runCli(['grant', 'chat:nobody', 'member'], config)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toStartWith('Personne n’est connu sous l’identifiant ')
    expect(unknown.stderr).toContain('chat:nobody')
  })
})

describe('plugins from the command line', () => {
  it('disables and enables a plugin; enabling checks its stored settings as chat does', async () => {
    const { config, database } = setUp()
    expect(await runCli(['disable', 'echo'], config)).toMatchObject({
      code: 0,
      stdout: 'echo is disabled; it does not start with the bot.\n',
    })
    expect(withStore(database, (store) => createPluginStore(store).installOf('echo')?.enabled)).toBe(false)
    expect((await runCli(['enable', 'echo'], config)).code).toBe(0)
    expect(withStore(database, (store) => createPluginStore(store).installOf('echo')?.enabled)).toBe(true)

    const refused = await runCli(['enable', 'needy'], config)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('configuration is incomplete: token: ')
    expect(await runCli(['set', 'needy', 'token', 'abcdef'], config)).toMatchObject({
      code: 0,
      stdout: 'needy token is stored; the bot starts with it.\n',
    })
    expect((await runCli(['enable', 'needy'], config)).code).toBe(0)
    expect(withStore(database, (store) => createPluginStore(store).installOf('needy')?.enabled)).toBe(true)
  })

  it('reads a value by its schema type, as chat does; unset removes it', async () => {
    const { config, database } = setUp()
    const settings = () => withStore(database, (store) => createPluginStore(store).settingsOf('needy'))
    // The schema wants text: digits stay text, as they would in chat.
    await runCli(['set', 'needy', 'token', '12345'], config)
    expect(settings()).toEqual({ token: '12345' })
    const rejected = await runCli(['set', 'needy', 'token', 'ab'], config)
    expect(rejected.code).toBe(1)
    expect(rejected.stderr).toContain('token')
    expect(settings()).toEqual({ token: '12345' })
    await runCli(['set', 'needy', 'token', 'two', 'words'], config)
    expect(settings()).toEqual({ token: 'two words' })
    expect(await runCli(['unset', 'needy', 'token'], config)).toMatchObject({
      code: 0,
      stdout: 'needy token is removed; the bot starts without it.\n',
    })
    expect(settings()).toEqual({})
    const absent = await runCli(['unset', 'needy', 'token'], config)
    expect(absent).toMatchObject({ code: 1, stderr: 'The spore "needy" has no stored value for "token".\n' })
    const undeclared = await runCli(['set', 'needy', 'colour', 'blue'], config)
    expect(undeclared.code).toBe(1)
    expect(undeclared.stderr).toContain('The spore "needy" has no setting named "colour".')
  })

  it('prints the same report as a check, and says no bot is running', async () => {
    const { config } = setUp()
    const check = await runBoot(['--check'], config)
    const status = await runCli(['status'], config)
    expect(status.code).toBe(0)
    expect(status.stdout).toBe(`${check.stdout}No bot is running on this database.\n`)
  })
})

describe('context rules from the command line', () => {
  it('lists the rules and clears one', async () => {
    const { config, database } = setUp()
    withStore(database, (store) => new RestrictionBook(store).setContextRule('echo.ping', ['dm']))
    expect((await runCli(['rules'], config)).stdout).toBe('echo.ping: dm\n')
    expect(await runCli(['rules', 'clear', 'echo.ping'], config)).toMatchObject({
      code: 0,
      stdout: 'The context rule of echo.ping is cleared.\n',
    })
    expect((await runCli(['rules', 'list'], config)).stdout).toBe('There is no context rule.\n')
  })
})

describe('when germination is refused', () => {
  it('still serves roles, so the operator can reach what would fix it', async () => {
    const { config, spores } = setUp()
    // A spores folder that exists but cannot be read refuses germination as a whole.
    rmSync(spores, { recursive: true, force: true })
    symlinkSync(spores, spores)
    const roles = await runCli(['roles'], config)
    expect(roles.code).toBe(0)
    expect(roles.stdout).toContain('owner: * (built in)')
    expect(roles.stderr).toContain('The spores could not be germinated (')
  })
})
