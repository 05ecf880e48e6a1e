import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { MIGRATIONS_FOLDER, openStore } from '../../store/index.ts'
import { scratchFolder } from '../store/scratch.ts'
import { needyHypha, optionalRhiza, probeHypha, respondEnzyme } from './fixtures.ts'
import { runBoot, writeSpore } from './process.ts'

const scratch = scratchFolder('boot-check')
afterAll(() => scratch.remove())

let count = 0
/** A folder with a mycelo.yaml (spores in ./spores, database in ./data) and that config's path. */
function setUp(extra = ''): { folder: string; spores: string; config: string } {
  const folder = join(scratch.path, `case-${++count}`)
  const spores = join(folder, 'spores')
  mkdirSync(spores, { recursive: true })
  const config = join(folder, 'mycelo.yaml')
  writeFileSync(config, `spores: [spores]\ndatabase: data/mycelo.db\n${extra}`)
  return { folder, spores, config }
}

describe('bun core/boot/main.ts --check', () => {
  it('prints every spore with its kind and state, and exits 0 without writing anything', async () => {
    const { folder, spores, config } = setUp()
    respondEnzyme(spores, 'echo')
    probeHypha(spores)
    needyHypha(spores)
    writeSpore(spores, 'broken', {
      'spore.yaml':
        'kind: enzyme\nname: broken\nseptum: "^1.0"\ncommands:\n  - name: go\n    description: d\n    code: go\n',
      'src/index.ts': "throw new Error('cannot load')\n",
    })
    const { code, stdout } = await runBoot(['--check'], config)
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('Germination report: 4 spores')
    // A fresh database records a spore that fails its checks disabled, with the reason.
    expect(lines[1]).toMatch(/^ {2}broken +commands +disabled +(?:(?:inline|worker) +)?\S.*cannot load$/)
    expect(lines[2]).toMatch(/^ {2}echo +commands +live +(inline|worker)$/)
    expect(lines[3]).toMatch(
      /^ {2}needy +channel +disabled +(?:(?:inline|worker) +)?configuration is incomplete: token: /,
    )
    expect(lines[4]).toMatch(/^ {2}probe +channel +live +(inline|worker)$/)
    expect(lines[5]).toBe('Mycelo could start: 2 of 4 spores would be live.')
    // Germinated only: no spore was started, and the database was not even created.
    expect(existsSync(join(spores, 'probe', 'journal.txt'))).toBe(false)
    expect(existsSync(join(folder, 'data'))).toBe(false)
  })

  it('prints the report as JSON with --json', async () => {
    const { spores, config } = setUp()
    respondEnzyme(spores, 'echo')
    needyHypha(spores)
    const { code, stdout } = await runBoot(['--check', '--json'], config)
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual({
      ok: true,
      spores: [
        { name: 'echo', kind: 'enzyme', state: 'live', dir: join(spores, 'echo'), isolation: 'inline' },
        {
          name: 'needy',
          kind: 'hypha',
          state: 'disabled',
          reason: expect.stringMatching(/^configuration is incomplete: token: /),
          dir: join(spores, 'needy'),
          isolation: 'inline',
        },
      ],
    })
  })

  it('reports the states an existing database holds: enabled, new, and dormant with the reason', async () => {
    const { folder, spores, config } = setUp()
    respondEnzyme(spores, 'echo')
    probeHypha(spores)
    writeSpore(spores, 'broken', {
      'spore.yaml':
        'kind: enzyme\nname: broken\nseptum: "^1.0"\ncommands:\n  - name: go\n    description: d\n    code: go\n',
      'src/index.ts': 'export default { create: () => ({ handlers: {} }) }\n',
    })
    const store = openStore({ path: join(folder, 'data', 'mycelo.db') })
    store.db.$client.run("INSERT INTO plugin_installs (name, enabled) VALUES ('echo', 1), ('broken', 1)")
    store.close()
    const { code, stdout } = await runBoot(['--check', '--json'], config)
    expect(code).toBe(0)
    const states = JSON.parse(stdout).spores.map((line: { name: string; state: string; reason?: string }) => [
      line.name,
      line.state,
      line.reason,
    ])
    expect(states).toEqual([
      ['broken', 'dormant', expect.stringContaining('go')],
      ['echo', 'live', undefined],
      ['probe', 'disabled', 'new: enable it to start it'],
    ])
  })

  it('reports an entry it cannot look into as dormant, and a spores folder that does not exist as a warning', async () => {
    const { folder, spores, config } = setUp()
    writeFileSync(config, 'spores: [spores, missing]\ndatabase: data/mycelo.db\n')
    respondEnzyme(spores, 'echo')
    symlinkSync(join(spores, 'loop'), join(spores, 'loop'))
    const missing = join(folder, 'missing')

    const text = await runBoot(['--check'], config)
    expect(text.code).toBe(0)
    const lines = text.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('Germination report: 2 spores')
    expect(lines[1]).toMatch(/^ {2}echo +commands +live +(inline|worker)$/)
    expect(lines[2]).toMatch(
      /^ {2}loop +unknown +disabled +(?:(?:inline|worker) +)?spore folder cannot be read: ELOOP/,
    )
    expect(lines[3]).toBe(`  Warning: the spores folder ${missing} does not exist; no spore is read from it.`)
    expect(lines[4]).toBe('Mycelo could start: 1 of 2 spores would be live.')
    const logged = text.stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(logged).toContainEqual(expect.objectContaining({ level: 40, folder: missing }))

    const json = await runBoot(['--check', '--json'], config)
    expect(json.code).toBe(0)
    const report = JSON.parse(json.stdout)
    expect(report.spores.map((line: { name: string }) => line.name)).toEqual(['echo', 'loop'])
    expect(report.warnings).toEqual([{ kind: 'missingFolder', folder: missing }])
  })

  it('refuses a bad config file naming the key, and exits 1', async () => {
    const { config } = setUp('http:\n  port: eighty\nprefx: "!"\n')
    const text = await runBoot(['--check'], config)
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toContain('Mycelo cannot start: ')
    expect(text.stderr).toContain('mycelo.yaml: http.port: expected a number, received the text "eighty"')
    expect(text.stderr).toContain('mycelo.yaml: unknown key "prefx"')
    const json = await runBoot(['--check', '--json'], config)
    expect(json.code).toBe(1)
    const parsed = JSON.parse(json.stdout)
    expect(parsed.ok).toBe(false)
    expect(parsed.error).toContain('http.port: expected a number')
  })

  it('refuses a YAML syntax error naming the file and line', async () => {
    const { config } = setUp('owner: { channel: console\n')
    const { code, stderr } = await runBoot(['--check'], config)
    expect(code).toBe(1)
    expect(stderr).toMatch(/mycelo\.yaml: line \d+, column \d+: /)
  })

  it('starts with the same spore name in two folders, the second folder set aside and named in a warning', async () => {
    const { folder, spores, config } = setUp()
    writeFileSync(config, 'spores: [spores, more]\n')
    const first = respondEnzyme(spores, 'echo')
    const second = respondEnzyme(join(folder, 'more'), 'echo')
    const { code, stdout } = await runBoot(['--check'], config)
    expect(code).toBe(0)
    expect(stdout).toContain(
      `the spore folder ${second} is set aside: a spore named "echo" already runs from ${first}`,
    )
  })

  it('leaves a cycle of three spores joined only by optional edges dormant, naming all three; the rest start', async () => {
    const { spores, config } = setUp()
    optionalRhiza(spores, 'alpha', 'beta')
    optionalRhiza(spores, 'beta', 'gamma')
    optionalRhiza(spores, 'gamma', 'alpha')
    respondEnzyme(spores, 'echo')
    const { code, stdout } = await runBoot(['--check', '--json'], config)
    expect(code).toBe(0)
    const { ok, spores: lines } = JSON.parse(stdout) as { ok: boolean; spores: Record<string, string>[] }
    expect(ok).toBe(true)
    for (const name of ['alpha', 'beta', 'gamma']) {
      const line = lines.find((entry) => entry.name === name)
      expect(line?.state).not.toBe('live')
      expect(line?.reason).toContain('alpha → beta → gamma')
    }
    expect(lines.find((entry) => entry.name === 'echo')?.state).toBe('live')
  })

  it('refuses a database written by a newer Mycelo', async () => {
    const { folder, config } = setUp()
    const path = join(folder, 'data', 'mycelo.db')
    openStore({ path }).close()
    const latest = Math.max(
      ...readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((m) => m.folderMillis),
    )
    const raw = new Database(path)
    raw.run('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)', [
      'abcdef1234567890',
      latest + 1000,
    ])
    raw.close()
    const { code, stderr } = await runBoot(['--check'], config)
    expect(code).toBe(1)
    expect(stderr).toContain(`the database at ${path} was written by a newer Mycelo (migration abcdef123456`)
    expect(stderr).toContain('upgrade Mycelo or restore a backup')
  })

  it('refuses an unknown option naming it, and --json without --check', async () => {
    const { config } = setUp()
    const unknown = await runBoot(['--chek'], config)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Unknown option --chek.')
    const lone = await runBoot(['--json'], config)
    expect(lone.code).toBe(2)
    expect(lone.stderr).toContain('--json only goes with --check.')
    const help = await runBoot(['--help'], config)
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('--check')
  })
})
