// Installing a strain: from a packed spore folder to a folder the core discovers, recorded
// disabled with what it asks for; a disk that fills up part-way leaves nothing behind.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { installStrain } from '../../../sporangium/installation.ts'
import { diskFiles, type StagingFiles } from '../../../sporangium/staging/files.ts'
import { installRecords } from '../../../store/install-rows.ts'
import { strainRowOf } from '../../../store/strain-rows.ts'
import { ROOT } from '../../boot/process.ts'
import {
  archiveOf,
  type Ground,
  makeGround,
  pack,
  probeManifest,
  recordingFiles,
  SOURCE,
  sporeFolder,
} from './ground.ts'

const SPORES = join(ROOT, 'spores')
let ground: Ground
beforeEach(() => {
  ground = makeGround()
})
afterEach(() => ground.remove())

test('a first-party spore packed under its folder installs disabled, with what it asks for in the reason', async () => {
  const files = recordingFiles()
  const outcome = await installStrain(
    ground.deps(files),
    archiveOf('admin', await pack(join(SPORES, 'admin'))),
  )

  const path = join(ground.installs, 'admin')
  expect(outcome).toEqual({ ok: true, value: { spore: 'admin', strain: '1.0.0', source: SOURCE, path } })
  expect(readFileSync(join(path, 'spore.yaml'), 'utf8')).toBe(
    readFileSync(join(SPORES, 'admin', 'spore.yaml'), 'utf8'),
  )
  expect(readdirSync(join(path, 'src')).sort()).toEqual(readdirSync(join(SPORES, 'admin', 'src')).sort())
  const row = strainRowOf(ground.store, 'admin')
  expect(row).toMatchObject({ enabled: false, sourceId: SOURCE, strain: '1.0.0', previousStrain: null })
  expect(row?.reason).toContain('installed at strain 1.0.0 from source "test-sporangium"')
  expect(row?.reason).toContain('a set of commands')
  expect(row?.reason).toContain('needs no connected system')
  for (const scope of [
    'plugins.read',
    'plugins.toggle',
    'roles.manage',
    'restrictions.manage',
    'locale.manage',
  ])
    expect(row?.reason).toContain(scope)
  // Everything was written under staging first, and staging is empty again.
  expect(files.written.length).toBeGreaterThan(0)
  for (const written of files.written) expect(written.startsWith(`${ground.staging}/`)).toBe(true)
  expect(readdirSync(ground.staging)).toEqual([])
})

test('a spore packed with its files at the root installs the same way', async () => {
  const outcome = await installStrain(
    ground.deps(),
    archiveOf('console', await pack(join(SPORES, 'console'), 'root')),
  )

  expect(outcome.ok).toBe(true)
  expect(readFileSync(join(ground.installs, 'console', 'spore.yaml'), 'utf8')).toBe(
    readFileSync(join(SPORES, 'console', 'spore.yaml'), 'utf8'),
  )
  expect(strainRowOf(ground.store, 'console')?.reason).toContain(
    'it is a channel, needs no connected system, and asks for no power over the bot itself',
  )
})

test('the reason names each rhiza required, optional ones and alternatives included', async () => {
  const manifest = probeManifest('probe', {
    requires: [
      { rhiza: 'radarr' },
      { any_of: [{ rhiza: 'plex' }, { rhiza: 'jellyfin' }], optional: true },
      { rhiza: 'mycelium', scopes: ['messages.send'] },
    ],
  })
  const dir = sporeFolder(ground, 'probe', { 'spore.yaml': manifest })
  await installStrain(ground.deps(), archiveOf('probe', await pack(dir)))

  expect(strainRowOf(ground.store, 'probe')?.reason).toContain(
    'needs the connected systems radarr, plex or jellyfin (optional), and asks to act on the bot itself (permission messages.send)',
  )
})

/** The disk, failing with `code` once `budget` bytes have been written. */
function fillingDisk(budget: number, code: string): StagingFiles {
  let left = budget
  return {
    makeFolder: diskFiles.makeFolder,
    async create(path) {
      const file = await diskFiles.create(path)
      return {
        async write(chunk) {
          left -= chunk.length
          if (left < 0) throw Object.assign(new Error(`${code}: simulated`), { code })
          await file.write(chunk)
        },
        close: () => file.close(),
      }
    },
  }
}

test('a disk that fills up in staging refuses the install and leaves nothing behind', async () => {
  const bytes = await pack(join(SPORES, 'admin'))
  const before = ground.snapshot()

  const outcome = await installStrain(ground.deps(fillingDisk(20_000, 'ENOSPC')), archiveOf('admin', bytes))

  expect(outcome).toEqual({
    ok: false,
    refusal: { domain: 'common', key: 'refusal.staging_disk_full', params: { spore: 'admin' } },
  })
  expect(ground.snapshot()).toEqual(before)
  expect(installRecords(ground.store).has('admin')).toBe(false)
})

test('any other fault of the disk is thrown, and leaves nothing behind either', async () => {
  const bytes = await pack(join(SPORES, 'admin'))
  const before = ground.snapshot()

  await expect(
    installStrain(ground.deps(fillingDisk(5_000, 'EIO')), archiveOf('admin', bytes)),
  ).rejects.toThrow('EIO')

  expect(ground.snapshot()).toEqual(before)
  expect(installRecords(ground.store).has('admin')).toBe(false)
})

test('bytes that do not match the SHA-256 they were proven against are a fault, and nothing is written', async () => {
  const archive = archiveOf('console', await pack(join(SPORES, 'console')))
  const before = ground.snapshot()

  const swapped = { ...archive, bytes: await pack(join(SPORES, 'admin')) }
  await expect(installStrain(ground.deps(), swapped)).rejects.toThrow('SHA-256')

  expect(ground.snapshot()).toEqual(before)
})
