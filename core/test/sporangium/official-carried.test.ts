// The official sporangium works out of the box: a fresh clone, offline, installs an official spore
// from the strains the checkout carries (same checks, staging and install records as a download),
// and the bot runs it; when the source's address answers with a newer strain, the upgrade comes
// from there, and only when the pinned key verifies it.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bundleModule } from '../../../sporangia/tool/bundle.ts'
import { readSporeFolder } from '../../../sporangia/tool/spore-folder.ts'
import { buildArchive } from '../../../sporangia/tool/strain-archive.ts'
import { insertSource } from '../../sporangium/source-rows.ts'
import { openStore } from '../../store/index.ts'
import { ROOT, runBun, startBoot } from '../boot/process.ts'
import { scratchFolder } from '../store/scratch.ts'
import { serveIndex } from '../support/index-server.ts'
import { newPublisher, writeSporangium } from '../support/publisher.ts'

const scratch = scratchFolder('official-carried')
afterAll(() => scratch.remove())

/** Any https request fails at once, as on a machine with no network: the proxy named is closed. */
const OFFLINE = { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '' }

function run(cwd: string, args: readonly string[], env: Record<string, string>) {
  return runBun(args, { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, { cwd })
}

describe('the official sporangium', () => {
  it('installs reminders on a fresh clone offline, and the bot answers /remind', async () => {
    const clone = join(scratch.path, 'clone')
    const git = Bun.spawnSync(['git', 'clone', '--quiet', '--no-hardlinks', ROOT, clone])
    expect(git.exitCode).toBe(0)
    // The clone's dependencies are the checkout's: installing them again would need the registry.
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'))
    const config = join(clone, 'mycelo.yaml')
    writeFileSync(config, 'http: { enabled: false }\n')
    const env = { ...OFFLINE, MYCELO_CONFIG: config }

    const installed = await run(clone, ['run', 'mycelo', 'install', 'official', 'reminders'], env)
    expect(installed.stderr).not.toContain('could not be reached')
    expect(installed.code).toBe(0)
    expect(installed.stdout).toContain(
      'reminders 1.0.0 is installed from official, its archive proven against what the source published.',
    )
    expect(installed.stdout).toContain(
      'installed at strain 1.0.0 from source "official", from the copy this checkout carries, and not started',
    )
    expect((await run(clone, ['run', 'mycelo', 'enable', 'reminders'], env)).code).toBe(0)
    expect((await run(clone, ['run', 'mycelo', 'set', 'console', 'interactive', 'always'], env)).code).toBe(0)

    const boot = startBoot(config, { ...OFFLINE, MYCELO_CONFIG: config })
    try {
      const report = await boot.waitFor('Mycelo is running')
      expect(report).toMatch(/ {2}reminders +\S+ +live\b/)
      boot.child.stdin.write('/remind in 10m take the bread out\n')
      boot.child.stdin.flush()
      const answered = await boot.waitFor('take the bread out')
      expect(answered).toMatch(/I will remind you on .+ \(UTC\): take the bread out/)
    } finally {
      boot.child.kill('SIGTERM')
      await boot.exited()
    }
  }, 120_000)

  it('upgrades from the address when it offers a newer strain, verified by the pinned key', async () => {
    const folder = join(scratch.path, 'remote')
    mkdirSync(folder, { recursive: true })
    const config = join(folder, 'mycelo.yaml')
    writeFileSync(
      config,
      `spores: [${JSON.stringify(join(ROOT, 'spores'))}, data/spores]\ndatabase: data/mycelo.db\nhttp: { enabled: false }\nsporangia: { allowLoopbackHttp: true }\n`,
    )
    // reminders 1.1.0 as the maintainer would publish it: packed by the tool, signed by their key.
    const dir = join(ROOT, 'sporangia', 'official', 'reminders')
    const spore = await readSporeFolder(dir, '1.1.0')
    if (!spore.ok) throw new Error(spore.refusal.key)
    const bundle = await bundleModule(dir, spore.value.manifest)
    if (!bundle.ok) throw new Error(bundle.refusal.key)
    const archive = await buildArchive({ dir, name: 'reminders', bundle: bundle.value })
    if (!archive.ok) throw new Error(archive.refusal.key)
    const maintainer = await newPublisher()
    const impostor = await newPublisher()
    const published = join(folder, 'published')
    await writeSporangium(published, {
      publisher: impostor,
      announcedKey: maintainer.key,
      spores: { reminders: { strains: { '1.1.0': { bytes: archive.value, septum: '^1.1' } } } },
    })
    const server = await serveIndex(published)
    try {
      // The official source at this address, its maintainer's key pinned, before the first start.
      const store = openStore({ path: join(folder, 'data', 'mycelo.db') })
      insertSource(store, {
        id: 'official',
        label: 'Mycelo official spores',
        url: server.url,
        publisherKey: maintainer.key,
        trust: 'official',
        enabled: true,
      })
      store.close()
      const env = { MYCELO_CONFIG: config }
      const first = await run(ROOT, ['core/cli/main.ts', 'install', 'official', 'reminders', '1.0.0'], env)
      expect(first.code).toBe(0)
      expect(first.stdout).toContain('from the copy this checkout carries')

      // Signed by another key than the one pinned: refused, and 1.0.0 stays.
      const forged = await run(ROOT, ['core/cli/main.ts', 'upgrade', 'reminders'], env)
      expect(forged.code).toBe(1)
      expect(forged.stderr).toContain(
        'Refused: the signature of "reminders" 1.1.0 does not verify with the key pinned for "official".',
      )

      await writeSporangium(published, {
        publisher: maintainer,
        spores: { reminders: { strains: { '1.1.0': { bytes: archive.value, septum: '^1.1' } } } },
      })
      const upgraded = await run(ROOT, ['core/cli/main.ts', 'upgrade', 'reminders'], env)
      expect(upgraded.stderr).toStartWith('Downloading reminders: ')
      expect(upgraded.code).toBe(0)
      expect(upgraded.stdout).toContain('reminders is upgraded from 1.0.0 to 1.1.0')
      expect(server.requests.some((request) => request.path === '/reminders-1.1.0.tgz')).toBe(true)
    } finally {
      await server.stop()
    }
  }, 120_000)
})
