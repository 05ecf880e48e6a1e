// The operator's side in chat: the shipped admin spore, granted sources.manage, through the real
// bus, against a signed sporangium served on loopback, installing real archives into the real tree.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { type IndexServer, serveIndex } from '../support/index-server.ts'
import { newPublisher, type Publisher, writeSporangium } from '../support/publisher.ts'
import { realSpore } from '../support/real-spores.ts'
import { startTestCore, type TestCore } from '../support/runtime.ts'
import { probeArchive } from './install/ground.ts'

/** Real processes and real HTTP on a shared machine: generous, never a measure. */
const PROCESS_TIMEOUT = 60_000

let core: TestCore
let server: IndexServer
let publisher: Publisher

beforeAll(async () => {
  core = await startTestCore({
    spores: { admin: realSpore('admin') },
    config: 'sporangia: { allowLoopbackHttp: true }\n',
  })
  publisher = await newPublisher()
  const folder = join(core.folder, 'sporangium')
  const scoped = { requires: [{ rhiza: 'mycelium', scopes: ['plugins.read'] }] }
  await writeSporangium(folder, {
    publisher,
    spores: {
      probe: {
        description: 'Says hi',
        strains: {
          '1.0.0': { bytes: await probeArchive(core.folder, '1.0.0') },
          '1.1.0': { bytes: await probeArchive(core.folder, '1.1.0', scoped) },
        },
      },
    },
  })
  server = await serveIndex(folder)
}, PROCESS_TIMEOUT)
afterAll(async () => {
  await server.stop()
  await core.stop()
})

const one = async (text: string) => (await core.ask(text)).join('\n')
const installed = () => join(core.folder, 'data', 'spores', 'probe')

describe('sporangia from chat, through the real bus', () => {
  it(
    'adds a source, pins its publisher key on first sight, and shows it',
    async () => {
      expect(await one(`/source-add ${server.url} Loopback mirror`)).toBe(
        `Added: loopback-mirror — Loopback mirror — ${server.url} — third party — enabled — publisher key pinned at the first signed index`,
      )
      const offered = (await one('/offered loopback-mirror hi')).split('\n')
      expect(offered[0]).toMatch(/^loopback-mirror offers one spore \(this bot runs septum 1\./)
      expect(offered.slice(1)).toEqual([
        'probe (commands) — Says hi',
        '  1.1.0 — septum ^1.0, published Nov 30, 2026 — runs here',
        '  1.0.0 — septum ^1.0, published Nov 30, 2026 — runs here',
      ])
      const sources = (await one('/sources')).split('\n')
      expect(sources).toContain(
        `loopback-mirror — Loopback mirror — ${server.url} — third party — enabled — publisher key ${publisher.key}`,
      )
    },
    PROCESS_TIMEOUT,
  )

  it(
    'installs a strain disabled, says what it asks for and how to enable it',
    async () => {
      const reply = (await one('/install loopback-mirror probe 1.0.0')).split('\n')
      expect(reply[0]).toBe(
        'probe 1.0.0 is installed from loopback-mirror, its archive proven against what the source published.',
      )
      expect(reply[1]).toStartWith('installed at strain 1.0.0 from source "loopback-mirror"')
      expect(reply[1]).toContain('a set of commands')
      expect(reply[2]).toBe('It is disabled: read what it asks for, then switch it on with /enable probe.')
      expect(existsSync(join(installed(), 'spore.yaml'))).toBe(true)
      // Listed at once, read from its folder: its kind is known before it is enabled.
      expect(await one('/plugins')).toContain(
        'probe (commands) — disabled, strain 1.0.0 from loopback-mirror: installed at strain 1.0.0',
      )
      expect(await one('/hi')).toStartWith("I don't know the command /hi.")
      expect(await one('/enable probe')).toBe('probe is enabled and live.')
      expect(await one('/hi')).toBe('probe 1.0.0')
    },
    PROCESS_TIMEOUT,
  )

  it(
    'upgrades to the newest strain, which asks for a scope, then rolls back',
    async () => {
      expect(await one('/upgrade probe')).toBe(
        'probe is upgraded from 1.0.0 to 1.1.0; if it was running, the new strain runs now. /rollback probe puts 1.0.0 back.',
      )
      expect(await one('/plugins')).toContain('plugins.read')
      expect(await one('/upgrade probe')).toBe(
        '"probe" is at 1.1.0: loopback-mirror offers nothing newer that runs here.',
      )
      expect(await one('/rollback probe')).toBe(
        'probe is back at 1.0.0 from loopback-mirror; if it was running, that strain runs now.',
      )
      expect(await one('/rollback probe')).toBe('There is no earlier strain of "probe" to roll back to.')
      // The strain on disk is the one that starts, at once.
      expect(await one('/plugins')).toContain(
        'probe (commands) — disabled, strain 1.0.0 from loopback-mirror: rolled back to strain 1.0.0',
      )
      expect(await one('/enable probe')).toBe('probe is enabled and live.')
      expect(await one('/hi')).toBe('probe 1.0.0')
    },
    PROCESS_TIMEOUT,
  )

  it(
    'refuses in the reader’s words: an unknown spore, a disabled source, an official deletion',
    async () => {
      expect(await one('/install loopback-mirror ghost')).toBe(
        'The source "loopback-mirror" offers no spore named "ghost".',
      )
      expect(await one('/source-disable loopback-mirror')).toBe(
        'loopback-mirror is disabled: nothing is installed from it until it is enabled.',
      )
      expect(await one('/install loopback-mirror probe')).toBe(
        'The source "loopback-mirror" is disabled; enable it before installing from it.',
      )
      expect(await one('/source-enable loopback-mirror')).toBe(
        'Spores can be installed from loopback-mirror again.',
      )
      expect(await one('/source-delete official')).toBe(
        'Refused: "official" is an official source; it can be disabled but never deleted.',
      )
    },
    PROCESS_TIMEOUT,
  )

  it(
    'uninstalls, removing the folder, and deletes the source',
    async () => {
      // What probe stored (septum 1.1) makes the core ask before anything is removed.
      await core.assembly.runtime.holdings.storageOf('probe').set('seen', 3)
      expect(await one('/uninstall probe')).toBe(
        '"probe" has stored data (1 entry, 0 schedules): say whether to keep it for a reinstall or delete it with the spore.\n' +
          'Usage: /uninstall <spore> keep|delete — keep leaves its stored data for a reinstall, delete removes it (needed only when it stored any)',
      )
      expect(existsSync(installed())).toBe(true)
      expect(await one('/uninstall probe delete')).toBe(
        'probe is uninstalled: its folder, install record, stored data and schedules are removed; its settings are kept.',
      )
      expect(await core.assembly.runtime.holdings.storageOf('probe').list()).toEqual([])
      expect(existsSync(installed())).toBe(false)
      expect(await one('/plugins')).not.toContain('probe')
      expect(await one('/source-delete loopback-mirror')).toBe('loopback-mirror is deleted.')
    },
    PROCESS_TIMEOUT,
  )
})
