// Moving a bot, as an operator does it: a backup written beside the running bot, restored on a
// fresh folder (another machine) and where the data folder was wiped, and the bot started there
// answers as before, with the same roles, settings, spores and kept strains.
import { afterAll, expect, it } from 'bun:test'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { createPluginStore, patternsOf, principalIdOf, roleNamesOf } from '../../store/index.ts'
import { strainRowOf } from '../../store/strain-rows.ts'
import { runCli, startBoot } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { botFolder, heldData, seedBot, withStore } from './bot.ts'

const scratch = scratchFolder('ops-move')
afterAll(() => scratch.remove())

/** Starts the bot, types `/greet` at its console, and answers what it printed. */
async function greet(config: string): Promise<string> {
  const boot = startBoot(config)
  try {
    await boot.waitFor('Mycelo is running')
    boot.child.stdin.write('/greet\n')
    boot.child.stdin.flush()
    return await boot.waitFor('hello from the greeter')
  } finally {
    boot.child.kill('SIGTERM')
    await boot.exited()
  }
}

function state(database: string) {
  return withStore(database, (store) => {
    const friend = principalIdOf(store, { channel: 'chat', externalId: 'friend' })
    return {
      friendRoles: friend === undefined ? [] : roleNamesOf(store, friend),
      patterns: patternsOf(store, 'moviegoer'),
      interactive: createPluginStore(store).settingsOf('console').interactive,
      greeter: strainRowOf(store, 'greeter'),
      data: heldData(store),
    }
  })
}

it('backs up a running bot, restores it on a fresh folder and after a wipe, and the same bot answers', async () => {
  const home = botFolder(scratch.path, 'home')
  seedBot(home)
  const archive = join(scratch.path, 'home.tar.gz')

  // The backup is taken while the bot runs: it only reads.
  const boot = startBoot(home.config)
  await boot.waitFor('Mycelo is running')
  const backup = await runCli(['backup', archive], home.config)
  boot.child.kill('SIGTERM')
  await boot.exited()
  expect(backup.stderr).toBe('')
  expect(backup.code).toBe(0)
  expect(backup.stdout).toStartWith(`Backed up to ${archive}:`)
  const before = state(home.database)
  expect(before.friendRoles).toContain('moviegoer')
  expect(before.greeter).toMatchObject({ sourceId: 'official', strain: '1.0.0', previousStrain: '0.9.0' })
  expect(before.data).toEqual({
    entries: [
      ['greeted', '3'],
      ['last', '{"who":"friend"}'],
    ],
    migrations: [1],
    schedules: [['daily', '0 9 * * *']],
  })

  // Another machine: the code's own spores, no mycelo.yaml, no data.
  const fresh = join(scratch.path, 'fresh')
  mkdirSync(fresh)
  cpSync(join(home.folder, 'spores'), join(fresh, 'spores'), { recursive: true })
  const freshConfig = join(fresh, 'mycelo.yaml')
  const restored = await runCli(['restore', archive], freshConfig)
  expect(restored.stderr).toBe('')
  expect(restored.code).toBe(0)
  expect(readFileSync(freshConfig, 'utf8')).toBe(readFileSync(home.config, 'utf8'))
  expect(existsSync(join(fresh, 'data', 'previous', 'greeter', 'spore.yaml'))).toBe(true)
  expect(state(join(fresh, 'data', 'mycelo.db'))).toEqual(before)
  expect(await greet(freshConfig)).toContain('hello from the greeter')

  // The worked example: the data folder wiped where it was, then restored.
  rmSync(home.data, { recursive: true, force: true })
  const again = await runCli(['restore', archive], home.config)
  expect(again.code).toBe(0)
  expect(state(home.database)).toEqual(before)
  expect(await greet(home.config)).toContain('hello from the greeter')
  const roles = await runCli(['roles', 'chat:friend'], home.config)
  expect(roles.stdout).toContain('moviegoer')
}, 60_000)
