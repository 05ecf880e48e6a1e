// Upgrading, rolling back and uninstalling: each moves folders with single renames, keeps the
// replaced strain aside (never where the core discovers spores), keeps the spore's settings, and
// keeps an operator's "enabled" only for a strain that asks for nothing more.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { installStrain, rollBack, uninstall } from '../../../sporangium/installation.ts'
import { installRecords } from '../../../store/install-rows.ts'
import { strainRowOf } from '../../../store/strain-rows.ts'
import { gzip, tarOf } from '../archive/tar-bytes.ts'
import { archiveOf, type Ground, makeGround, pack, probeManifest, SOURCE, sporeFolder } from './ground.ts'

let ground: Ground
beforeEach(() => {
  ground = makeGround()
})
afterEach(() => ground.remove())

const SCOPES = ['commands.read']
/** A probe strain: its manifest asks for `scopes`, and a file says which strain it is. */
async function strainOf(strain: string, extra: Record<string, unknown> = {}) {
  const manifest = probeManifest('probe', { requires: [{ rhiza: 'mycelium', scopes: SCOPES }], ...extra })
  const dir = sporeFolder(ground, 'probe', { 'spore.yaml': manifest, 'strain.txt': strain })
  return archiveOf('probe', await pack(dir), strain)
}
const installedStrain = () => readFileSync(join(ground.installs, 'probe', 'strain.txt'), 'utf8')
const keptStrain = () => readFileSync(join(ground.previous, 'probe', 'strain.txt'), 'utf8')
/** An enforcing inhibitor's strain, asking for `scopes`. */
async function guardOf(strain: string, scopes: string[]) {
  const manifest = `kind: inhibitor\nname: probe\nseptum: "^1.0"\nenforcing: true\nrequires: [{ rhiza: mycelium, scopes: [${scopes.join(', ')}] }]\n`
  return archiveOf('probe', await pack(sporeFolder(ground, 'probe', { 'spore.yaml': manifest })), strain)
}
const enable = () => ground.plugins.recordInstall('probe', { enabled: true, reason: null })

describe('an upgrade', () => {
  test('of an enabled spore asking for nothing more keeps it enabled, keeps the old strain aside and the settings', async () => {
    await installStrain(ground.deps(), await strainOf('1.0.0'))
    enable()
    ground.plugins.setSetting('probe', 'greeting', 'bonjour')

    const outcome = await installStrain(ground.deps(), await strainOf('1.1.0'))

    expect(outcome.ok && outcome.value.strain).toBe('1.1.0')
    expect(installedStrain()).toBe('1.1.0')
    expect(keptStrain()).toBe('1.0.0')
    expect(strainRowOf(ground.store, 'probe')).toEqual({
      enabled: true,
      reason: null,
      sourceId: SOURCE,
      strain: '1.1.0',
      previousSourceId: SOURCE,
      previousStrain: '1.0.0',
    })
    expect(ground.plugins.settingsOf('probe')).toEqual({ greeting: 'bonjour' })
    // The kept strain lies outside every folder the core discovers spores in.
    for (const folder of ground.config.spores) expect(ground.previous.startsWith(`${folder}/`)).toBe(false)
  })

  test('of an enabled spore asking for another scope disables it, naming what it now asks for', async () => {
    await installStrain(ground.deps(), await strainOf('1.0.0'))
    enable()

    await installStrain(
      ground.deps(),
      await strainOf('2.0.0', { requires: [{ rhiza: 'mycelium', scopes: [...SCOPES, 'plugins.toggle'] }] }),
    )

    const row = strainRowOf(ground.store, 'probe')
    expect(row?.enabled).toBe(false)
    expect(row?.reason).toContain(
      'upgraded to strain 2.0.0 from source "test-sporangium", which asks for more',
    )
    expect(row?.reason).toContain('asks to act on the bot itself (permissions commands.read, plugins.toggle)')
  })

  test('of an enabled spore requiring another rhiza, or turned into another kind, disables it', async () => {
    await installStrain(ground.deps(), await strainOf('1.0.0'))
    enable()
    await installStrain(ground.deps(), await strainOf('1.1.0', { requires: [{ rhiza: 'radarr' }] }))
    expect(strainRowOf(ground.store, 'probe')?.enabled).toBe(false)

    enable()
    const rhiza = sporeFolder(ground, 'probe', { 'spore.yaml': 'kind: rhiza\nname: probe\nseptum: "^1.0"\n' })
    await installStrain(ground.deps(), archiveOf('probe', await pack(rhiza), '1.2.0'))
    expect(strainRowOf(ground.store, 'probe')?.reason).toContain('it is a connected system')
  })

  test('of a disabled spore leaves it disabled, and drops the strain kept before', async () => {
    await installStrain(ground.deps(), await strainOf('1.0.0'))
    await installStrain(ground.deps(), await strainOf('1.1.0'))
    await installStrain(ground.deps(), await strainOf('1.2.0'))

    expect(installedStrain()).toBe('1.2.0')
    expect(keptStrain()).toBe('1.1.0')
    expect(strainRowOf(ground.store, 'probe')).toMatchObject({ enabled: false, previousStrain: '1.1.0' })
    expect(ground.snapshot().has('data/staging')).toBe(true)
    expect([...ground.snapshot().keys()].filter((path) => path.startsWith('data/staging/'))).toEqual([])
  })

  test('of an enabled inhibitor that becomes enforcing disables it: it could then close a channel', async () => {
    const advisory = sporeFolder(ground, 'probe', {
      'spore.yaml': 'kind: inhibitor\nname: probe\nseptum: "^1.0"\n',
    })
    await installStrain(ground.deps(), archiveOf('probe', await pack(advisory), '1.0.0'))
    enable()

    await installStrain(ground.deps(), await guardOf('1.1.0', []))

    expect(strainRowOf(ground.store, 'probe')).toMatchObject({ enabled: false, strain: '1.1.0' })
  })

  test('of an enabled enforcing inhibitor asking for more is refused: it would open what it guards', async () => {
    await installStrain(ground.deps(), await guardOf('1.0.0', ['plugins.read']))
    expect(strainRowOf(ground.store, 'probe')?.reason).toContain('a filter on who is heard that is enforcing')
    enable()
    const before = ground.snapshot()

    const outcome = await installStrain(
      ground.deps(),
      await guardOf('2.0.0', ['plugins.read', 'plugins.toggle']),
    )

    expect(outcome.ok || outcome.refusal.key).toBe('refusal.strain_guard_enabled')
    expect(ground.snapshot()).toEqual(before)
    expect(strainRowOf(ground.store, 'probe')).toMatchObject({ enabled: true, strain: '1.0.0' })
  })

  test('with a hostile archive leaves the installed strain, the kept one and the row as they were', async () => {
    await installStrain(ground.deps(), await strainOf('1.0.0'))
    await installStrain(ground.deps(), await strainOf('1.1.0'))
    const before = ground.snapshot()
    const rows = installRecords(ground.store)

    const hostile = gzip(
      tarOf([
        { name: 'spore.yaml', data: probeManifest() },
        { name: '../probe/evil', data: 'x' },
      ]),
    )
    const outcome = await installStrain(ground.deps(), archiveOf('probe', hostile, '6.6.6'))

    expect(outcome.ok || outcome.refusal.key).toBe('refusal.archive_path_parent')
    expect(ground.snapshot()).toEqual(before)
    expect(installRecords(ground.store)).toEqual(rows)
  })
})

describe('a rollback', () => {
  test('puts the kept strain back in one step, and records it as the one installed', async () => {
    await installStrain(ground.deps(), await strainOf('1.0.0'))
    enable()
    ground.plugins.setSetting('probe', 'greeting', 'hallo')
    await installStrain(ground.deps(), await strainOf('1.1.0'))

    const outcome = await rollBack(ground.deps(), 'probe')

    expect(outcome).toEqual({
      ok: true,
      value: { spore: 'probe', strain: '1.0.0', source: SOURCE, path: join(ground.installs, 'probe') },
    })
    expect(installedStrain()).toBe('1.0.0')
    expect(existsSync(join(ground.previous, 'probe'))).toBe(false)
    expect(strainRowOf(ground.store, 'probe')).toMatchObject({
      enabled: true,
      strain: '1.0.0',
      previousStrain: null,
    })
    expect(ground.plugins.settingsOf('probe')).toEqual({ greeting: 'hallo' })
    expect([...ground.snapshot().keys()].filter((path) => path.startsWith('data/staging/'))).toEqual([])
  })

  test('to a strain that asks for more than the enabled one disables it', async () => {
    await installStrain(
      ground.deps(),
      await strainOf('1.0.0', { requires: [{ rhiza: 'mycelium', scopes: [...SCOPES, 'roles.manage'] }] }),
    )
    await installStrain(ground.deps(), await strainOf('1.1.0'))
    enable()

    await rollBack(ground.deps(), 'probe')

    const row = strainRowOf(ground.store, 'probe')
    expect(row?.enabled).toBe(false)
    expect(row?.reason).toContain('rolled back to strain 1.0.0, which asks for more')
  })

  test('with nothing kept is refused, and changes nothing', async () => {
    await installStrain(ground.deps(), await strainOf('1.0.0'))
    const before = ground.snapshot()

    const outcome = await rollBack(ground.deps(), 'probe')

    expect(outcome).toEqual({
      ok: false,
      refusal: { domain: 'common', key: 'refusal.strain_no_previous', params: { spore: 'probe' } },
    })
    expect(ground.snapshot()).toEqual(before)
  })
})

describe('an uninstall', () => {
  test('removes the folder, the kept strain and the row, and keeps the settings for a reinstall', async () => {
    await installStrain(ground.deps(), await strainOf('1.0.0'))
    await installStrain(ground.deps(), await strainOf('1.1.0'))
    ground.plugins.setSetting('probe', 'greeting', 'hola')

    expect(await uninstall(ground.deps(), 'probe')).toEqual({ ok: true })

    expect(existsSync(join(ground.installs, 'probe'))).toBe(false)
    expect(existsSync(join(ground.previous, 'probe'))).toBe(false)
    expect(installRecords(ground.store).has('probe')).toBe(false)
    expect(ground.plugins.settingsOf('probe')).toEqual({ greeting: 'hola' })
    expect([...ground.snapshot().keys()].filter((path) => path.startsWith('data/staging/'))).toEqual([])
  })

  test('of an enabled enforcing inhibitor is refused until it is disabled: removing it would open what it guards', async () => {
    await installStrain(ground.deps(), await guardOf('1.0.0', ['plugins.read']))
    enable()
    const before = ground.snapshot()

    const outcome = await uninstall(ground.deps(), 'probe')

    expect(outcome.ok || outcome.refusal.key).toBe('refusal.uninstall_guard_enabled')
    expect(ground.snapshot()).toEqual(before)
    ground.plugins.recordInstall('probe', { enabled: false, reason: 'disabled by an operator' })
    expect(await uninstall(ground.deps(), 'probe')).toEqual({ ok: true })
  })

  test('of a spore that is not installed from a sporangium (a shipped one) is refused, and changes nothing', async () => {
    const before = ground.snapshot()

    for (const spore of ['help', 'nothing']) {
      const outcome = await uninstall(ground.deps(), spore)
      expect(outcome).toEqual({
        ok: false,
        refusal: { domain: 'common', key: 'refusal.spore_not_installed', params: { spore } },
      })
    }
    expect(ground.snapshot()).toEqual(before)
  })

  test('or a rollback of a name that is a path is refused before it names a folder', async () => {
    const before = ground.snapshot()
    for (const act of [uninstall, rollBack]) {
      const outcome = await act(ground.deps(), '../spores/help')
      expect(outcome.ok || outcome.refusal.key).toBe('refusal.spore_name_invalid')
    }
    expect(ground.snapshot()).toEqual(before)
  })
})

test('changes of one spore asked at once run one after the other, each whole', async () => {
  const [first, second] = [await strainOf('1.0.0'), await strainOf('1.1.0')]

  const outcomes = await Promise.all([
    installStrain(ground.deps(), first),
    installStrain(ground.deps(), second),
  ])

  expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true])
  expect(installedStrain()).toBe('1.1.0')
  expect(keptStrain()).toBe('1.0.0')
  expect(strainRowOf(ground.store, 'probe')).toMatchObject({ strain: '1.1.0', previousStrain: '1.0.0' })
})
