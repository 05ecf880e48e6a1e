// A crash mid-install leaves no half folder: a real process running installStrain on a big
// archive is killed with SIGKILL while it unpacks, and the clean-up every start runs puts the tree
// back exactly as it was before the install began.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanLeftovers, installStrain } from '../../../sporangium/installation.ts'
import { installRecords } from '../../../store/install-rows.ts'
import { ROOT } from '../../boot/process.ts'
import { archiveOf, type Ground, makeGround, pack, probeManifest, sporeFolder } from './ground.ts'

let ground: Ground
beforeEach(() => {
  ground = makeGround()
})
afterEach(() => ground.remove())

const FILES = 300

/** The probe at strain 1.0.0, installed; answers the big strain 2.0.0's archive, written to a file. */
async function installedProbeAndBigStrain(): Promise<string> {
  const small = sporeFolder(ground, 'probe', { 'spore.yaml': probeManifest(), 'strain.txt': '1.0.0' })
  const installed = await installStrain(ground.deps(), archiveOf('probe', await pack(small), '1.0.0'))
  expect(installed.ok).toBe(true)
  const files: Record<string, string> = { 'spore.yaml': probeManifest(), 'strain.txt': '2.0.0' }
  for (let at = 0; at < FILES; at++)
    files[`data/chunk-${at}.txt`] = Buffer.from(crypto.getRandomValues(new Uint8Array(24 * 1024))).toString(
      'base64',
    )
  const archive = join(ground.root, 'work', 'big.tgz')
  writeFileSync(archive, await pack(sporeFolder(ground, 'probe', files)))
  return archive
}

test('kill -9 while unpacking, then the start-up clean-up: the tree is as it was', async () => {
  const archive = await installedProbeAndBigStrain()
  const before = ground.snapshot()
  const rows = installRecords(ground.store)

  const child = Bun.spawn(
    [
      'bun',
      join(import.meta.dir, 'crash-child.ts'),
      join(ground.root, 'mycelo.yaml'),
      archive,
      'probe',
      String(FILES / 2),
    ],
    { cwd: ROOT, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' },
  )
  const decoder = new TextDecoder()
  let said = ''
  for await (const chunk of child.stdout) {
    said += decoder.decode(chunk, { stream: true })
    if (said.includes('unpacking')) break
  }
  expect(said).toContain('unpacking')
  child.kill('SIGKILL')
  expect(await child.exited).not.toBe(0)

  // Half a strain lies in staging; nothing past it moved.
  expect(readdirSync(ground.staging).length).toBe(1)
  expect(readFileSync(join(ground.installs, 'probe', 'strain.txt'), 'utf8')).toBe('1.0.0')

  await cleanLeftovers(ground.deps())

  expect(ground.snapshot()).toEqual(before)
  expect(installRecords(ground.store)).toEqual(rows)
})

test('an upgrade cut between its two renames is put back by the clean-up, never left half there', async () => {
  const small = sporeFolder(ground, 'probe', { 'spore.yaml': probeManifest(), 'strain.txt': '1.0.0' })
  await installStrain(ground.deps(), archiveOf('probe', await pack(small), '1.0.0'))
  const before = ground.snapshot()
  // Where a crash after the first rename of an upgrade leaves things: the strain moved aside, the
  // new one still in staging.
  mkdirSync(ground.previous)
  renameSync(join(ground.installs, 'probe'), join(ground.previous, 'probe'))
  mkdirSync(join(ground.staging, 'probe.abc123', 'spore'), { recursive: true })
  writeFileSync(join(ground.staging, 'probe.abc123', 'spore', 'spore.yaml'), probeManifest())

  await cleanLeftovers(ground.deps())

  const after = ground.snapshot()
  // The folder for kept strains stays, empty, as a real upgrade leaves it.
  expect(after.get('data/previous')).toBe('folder')
  after.delete('data/previous')
  expect(after).toEqual(before)
})

test('a strain whose folder an operator removed by hand, with no change under way, is not brought back', async () => {
  const small = sporeFolder(ground, 'probe', { 'spore.yaml': probeManifest(), 'strain.txt': '1.0.0' })
  await installStrain(ground.deps(), archiveOf('probe', await pack(small), '1.0.0'))
  await installStrain(ground.deps(), archiveOf('probe', await pack(small), '1.1.0'))
  rmSync(join(ground.installs, 'probe'), { recursive: true })
  const before = ground.snapshot()

  await cleanLeftovers(ground.deps())

  expect(ground.snapshot()).toEqual(before)
})
