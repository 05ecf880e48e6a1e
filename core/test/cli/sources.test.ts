// Sporangia from the command-line companion: real processes over a real SQLite file, a signed
// sporangium served on loopback by the test, real archives installed into the bot's installs folder.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { createPluginStore, openStore } from '../../store/index.ts'
import { sporeData, sporeMigrations, sporeSchedules } from '../../store/schema/index.ts'
import { respondEnzyme } from '../boot/fixtures.ts'
import { runCli } from '../boot/process.ts'
import { probeArchive } from '../sporangium/install/ground.ts'
import { scratchFolder } from '../store/scratch.ts'
import { type IndexServer, serveIndex } from '../support/index-server.ts'
import { newPublisher, type Publisher, writeSporangium } from '../support/publisher.ts'

const scratch = scratchFolder('cli-sources')
/** Real processes and real HTTP on a shared machine: generous, never a measure. */
const PROCESS_TIMEOUT = 60_000

let server: IndexServer
let publisher: Publisher
let config: string

/** A bot's folder whose spores are the shipped-like `echo` and whatever gets installed. */
function setUp(name: string, extra = ''): string {
  const folder = join(scratch.path, name)
  mkdirSync(join(folder, 'spores'), { recursive: true })
  respondEnzyme(join(folder, 'spores'), 'echo')
  const file = join(folder, 'mycelo.yaml')
  writeFileSync(
    file,
    'spores: [spores, data/spores]\ndatabase: data/mycelo.db\nowner: { channel: chat, userId: boss }\n' +
      `sporangia: { allowLoopbackHttp: true }\n${extra}`,
  )
  return file
}

beforeAll(async () => {
  publisher = await newPublisher()
  const folder = join(scratch.path, 'sporangium')
  await writeSporangium(folder, {
    publisher,
    spores: {
      probe: {
        description: 'Says hi',
        strains: {
          '1.0.0': { bytes: await probeArchive(scratch.path, '1.0.0') },
          '1.1.0': { bytes: await probeArchive(scratch.path, '1.1.0') },
          '2.0.0': { bytes: await probeArchive(scratch.path, '2.0.0'), septum: '^2.0' },
        },
      },
    },
  })
  server = await serveIndex(folder)
  config = setUp('bot')
}, PROCESS_TIMEOUT)
afterAll(async () => {
  await server.stop()
  scratch.remove()
})

const installRow = (file: string) => {
  const store = openStore({ path: join(file, '..', 'data', 'mycelo.db') })
  try {
    return createPluginStore(store).installOf('probe')
  } finally {
    store.close()
  }
}

/** What probe would have stored: an entry, an applied migration and a schedule. */
function seedData(file: string): void {
  const store = openStore({ path: join(file, '..', 'data', 'mycelo.db') })
  try {
    store.db.insert(sporeData).values({ spore: 'probe', key: 'greeted', value: '3' }).run()
    store.db.insert(sporeMigrations).values({ spore: 'probe', version: 1 }).run()
    store.db
      .insert(sporeSchedules)
      .values({
        spore: 'probe',
        id: 'daily',
        cron: '0 9 * * *',
        timeZone: 'UTC',
        missedPolicy: 'skip',
        nextAt: 1,
      })
      .run()
  } finally {
    store.close()
  }
}

function heldData(file: string) {
  const store = openStore({ path: join(file, '..', 'data', 'mycelo.db') })
  const count = (table: typeof sporeData | typeof sporeMigrations | typeof sporeSchedules) =>
    store.db.select().from(table).where(eq(table.spore, 'probe')).all().length
  try {
    return { entries: count(sporeData), migrations: count(sporeMigrations), schedules: count(sporeSchedules) }
  } finally {
    store.close()
  }
}

describe('sources from the command line', () => {
  it(
    'lists the seeded official source, adds one pinning its key, changes and toggles it',
    async () => {
      const listed = await runCli(['sources'], config)
      expect(listed.code).toBe(0)
      expect(listed.stdout).toStartWith('official — ')
      const added = await runCli(['source-add', server.url, 'Loopback', publisher.key], config)
      expect(added).toMatchObject({
        code: 0,
        stdout: `Added: loopback — Loopback — ${server.url} — third party — enabled — publisher key ${publisher.key}\n`,
      })
      const token = await runCli(['source-set', 'loopback', 'token', 'abc123'], config)
      expect(token.stdout).toContain(' — token •••• — ')
      expect(token.stdout).not.toContain('abc123')
      expect((await runCli(['source-set', 'loopback', 'token', '-'], config)).stdout).not.toContain('token')
      const field = await runCli(['source-set', 'loopback', 'colour', 'blue'], config)
      expect(field).toMatchObject({
        code: 1,
        stderr: 'A source has no field colour: change its label, url, token or key.\n',
      })
      expect((await runCli(['source-disable', 'loopback'], config)).stdout).toBe(
        'loopback is disabled: nothing is installed from it until it is enabled.\n',
      )
      const disabled = await runCli(['offered', 'loopback'], config)
      expect(disabled).toMatchObject({
        code: 1,
        stderr: 'The source "loopback" is disabled; enable it before installing from it.\n',
      })
      expect((await runCli(['source-enable', 'loopback'], config)).code).toBe(0)
    },
    PROCESS_TIMEOUT,
  )

  it(
    'shows what a source offers, saying which strains run on this septum',
    async () => {
      const offered = await runCli(['offered', 'loopback', 'SAYS'], config)
      expect(offered.code).toBe(0)
      const lines = offered.stdout.trimEnd().split('\n')
      expect(lines[0]).toMatch(/^loopback offers one spore \(this bot runs septum 1\./)
      expect(lines.slice(1)).toEqual([
        'probe (commands) — Says hi',
        '  2.0.0 — septum ^2.0, published 2026-11-30T12:00:00Z — does not run here',
        '  1.1.0 — septum ^1.0, published 2026-11-30T12:00:00Z — runs here',
        '  1.0.0 — septum ^1.0, published 2026-11-30T12:00:00Z — runs here',
      ])
      expect((await runCli(['offered', 'loopback', 'music'], config)).stdout).toBe(
        'loopback offers no spore matching that.\n',
      )
    },
    PROCESS_TIMEOUT,
  )

  it(
    'refuses to delete the official source, in the configured language',
    async () => {
      const french = setUp('french', 'defaultLocale: fr\n')
      const refused = await runCli(['source-delete', 'official'], french)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toBe(
        'Refusé : « official » est une source officielle ; on peut la désactiver, jamais la supprimer.\n',
      )
    },
    PROCESS_TIMEOUT,
  )
})

describe('installs from the command line', () => {
  it(
    'installs disabled with download progress on stderr, says what it asks for, and enables',
    async () => {
      const installed = await runCli(['install', 'loopback', 'probe', '1.0.0'], config)
      expect(installed.code).toBe(0)
      const lines = installed.stdout.trimEnd().split('\n')
      expect(lines[0]).toBe(
        'probe 1.0.0 is installed from loopback, its archive proven against what the source published.',
      )
      expect(lines[1]).toStartWith('installed at strain 1.0.0 from source "loopback"')
      expect(lines[2]).toBe('It is disabled: read what it asks for, then run: bun run mycelo enable probe')
      expect(installed.stderr).toMatch(/Downloading probe: [\d,]+ of [\d,]+ bytes\n/)
      expect(installRow(config)).toMatchObject({ enabled: false })
      expect((await runCli(['enable', 'probe'], config)).code).toBe(0)
      expect(installRow(config)).toMatchObject({ enabled: true })
    },
    PROCESS_TIMEOUT,
  )

  it(
    'upgrades to the newest strain that runs here, rolls back, and uninstalls',
    async () => {
      const upgraded = await runCli(['upgrade', 'probe'], config)
      expect(upgraded).toMatchObject({
        code: 0,
        stdout: 'probe is upgraded from 1.0.0 to 1.1.0; bun run mycelo rollback probe puts 1.0.0 back.\n',
      })
      expect(await runCli(['upgrade', 'probe'], config)).toMatchObject({
        code: 1,
        stderr: '"probe" is at 1.1.0: loopback offers nothing newer that runs here.\n',
      })
      expect((await runCli(['rollback', 'probe'], config)).stdout).toBe(
        'probe is back at 1.0.0 from loopback.\n',
      )
      const folder = join(config, '..', 'data', 'spores', 'probe')
      expect(existsSync(folder)).toBe(true)
      seedData(config)
      // It stored something, so the operator is asked what happens to it, and nothing is removed.
      expect(await runCli(['uninstall', 'probe'], config)).toMatchObject({
        code: 1,
        stderr:
          '"probe" has stored data (1 entry, 1 schedule): say whether to keep it for a reinstall or delete it with the spore.\n',
      })
      expect(existsSync(folder)).toBe(true)
      expect((await runCli(['uninstall', 'probe', '--keep-data'], config)).stdout).toBe(
        'probe is uninstalled: its folder and install record are removed, its settings and any stored data kept.\n',
      )
      expect(existsSync(folder)).toBe(false)
      // Kept: a reinstall finds what it stored.
      expect(heldData(config)).toEqual({ entries: 1, migrations: 1, schedules: 1 })
      expect((await runCli(['install', 'loopback', 'probe', '1.0.0'], config)).code).toBe(0)
      expect(await runCli(['uninstall', 'probe', '--keep'], config)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('uninstall <spore> [--keep-data | --delete-data]'),
      })
      expect((await runCli(['uninstall', 'probe', '--delete-data'], config)).stdout).toBe(
        'probe is uninstalled: its folder, install record, stored data and schedules are removed; its settings are kept.\n',
      )
      expect(heldData(config)).toEqual({ entries: 0, migrations: 0, schedules: 0 })
      const again = await runCli(['uninstall', 'probe'], config)
      expect(again).toMatchObject({
        code: 1,
        stderr: 'No spore named "probe" is installed from a sporangium.\n',
      })
    },
    PROCESS_TIMEOUT,
  )

  it(
    'refuses to upgrade a spore that did not come from a source',
    async () => {
      expect(await runCli(['upgrade', 'echo'], config)).toMatchObject({
        code: 1,
        stderr: 'No spore named "echo" is installed from a sporangium.\n',
      })
    },
    PROCESS_TIMEOUT,
  )

  it(
    'lists the new commands in --help',
    async () => {
      const help = await runCli(['--help'], config)
      for (const synopsis of ["source-add '<url>' '<label>'", "install '<source>' '<spore>'", 'uninstall'])
        expect(help.stdout).toContain(synopsis.replaceAll("'", ''))
    },
    PROCESS_TIMEOUT,
  )
})
