import { describe, expect, it } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { OFFICIAL_SPORES } from '../../../sporangia/official/test/official-spores.ts'
import { HOST_MARK } from '../support/host-marks.ts'

// The first-party and official spores' whole suites, run isolated (MYCELO_ISOLATION=worker): a suite
// that imports its spore's module is handed it loaded in a host (core/test/support/hosted-spores.ts),
// and every bot a suite starts, in this process or its own, runs each spore in a host. Each spore a
// host creates is marked under the test file that made it, which is how this test knows that every
// suite really ran its spore in a worker rather than silently inline.

const ROOT = join(import.meta.dir, '..', '..', '..')

/** Each first-party and official spore, by the folder its suite lives in. */
const SPORES: Record<string, string> = Object.fromEntries([
  ...readdirSync(join(ROOT, 'spores')).map((name) => [name, `spores/${name}`]),
  ...OFFICIAL_SPORES.map((name) => [name, `sporangia/official/${name}`]),
])

/** The official sporangium's own suite (its test/): the official spores installed from it into a bot. */
const INDEX_SUITE = 'sporangia/official'

/** A suite's files by name: `inSuite('spores/signal', ['config'])` is its test/config.test.ts. */
const inSuite = (folder: string, names: readonly string[]) =>
  names.map((name) => `${folder}/test/${name}.test.ts`)

/**
 * Test files of those suites that create no spore at all, inline or in a host: they drive a channel
 * built from the spore's own classes with a test's clock and backoff (the hypha the spore's create()
 * makes is run in a host by the same suite's conformance and bot-driven files), or test a fake
 * service, the wire types, a settings schema, a catalogue or a helper. Run isolated all the same,
 * and held to creating none, so the list stays exact.
 */
const CREATE_NO_SPORE = new Set<string>([
  ...inSuite('spores/discord', [
    'config',
    'connect-deadline',
    'connect-refusal',
    'events',
    'failures',
    'fake-discord',
    'fake-fidelity',
    'gateway',
    'inbound',
    'membership',
    'mentions',
    'order',
    'outbound',
    'split',
    'translations',
  ]),
  ...inSuite('spores/signal', [
    'attachments',
    'config',
    'daemon-fidelity',
    'envelope',
    'inbound',
    'members',
    'order',
    'outbound',
    'reconnect',
    'refusals',
    'wording',
  ]),
  ...inSuite('sporangia/official/matrix', [
    'config',
    'connection',
    'inbound',
    'outbound',
    'rooms',
    'translations',
    'wire-types',
  ]),
  ...inSuite('sporangia/official/reminders', ['request']),
  ...inSuite('sporangia/official/telegram', [
    'config',
    'connection',
    'inbound',
    'members',
    'offset',
    'outbound',
    'translations',
    'webhook',
    'wire-types',
  ]),
])

/** Files whose bots run other spores than their own, and why. */
const CREATE_OTHERS: Readonly<Record<string, string>> = {
  'spores/discord/test/idle-import.test.ts': 'Discord has no token there and stays disabled',
}

function testFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder, 'test'))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${folder}/test/${file}`)
}

interface IsolatedRun {
  readonly code: number
  readonly out: string
  /** Each test file bun test reported, with the spores hosts created while it ran. */
  readonly created: ReadonlyMap<string, ReadonlySet<string>>
}

/**
 * Each test's own bound in a run isolated: every spore's calls cross a bridge and each host loads its
 * module afresh, on a machine that may be shared. Generous, never a measure.
 */
const TEST_TIMEOUT_MS = 120_000

async function isolatedRun(files: readonly string[]): Promise<IsolatedRun> {
  const child = Bun.spawn([process.execPath, 'test', '--timeout', String(TEST_TIMEOUT_MS), ...files], {
    cwd: ROOT,
    env: { ...process.env, MYCELO_ISOLATION: 'worker' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  // bun test names each file on standard error (`path:`) before it runs it; the marks follow there.
  const created = new Map<string, Set<string>>()
  let current: Set<string> | undefined
  for (const line of stderr.split('\n')) {
    const file = /^(\S+\.test\.ts):$/.exec(line)?.[1]
    if (file !== undefined) {
      current = new Set()
      created.set(file, current)
    } else if (line.startsWith(HOST_MARK)) current?.add(line.slice(HOST_MARK.length))
  }
  return { code, out: `${stdout}\n${stderr}`, created }
}

/** bun test's own count line, e.g. ` 17 pass`. */
const count = (out: string, what: 'pass' | 'fail') =>
  Number(new RegExp(`^\\s*(\\d+) ${what}$`, 'm').exec(out)?.[1] ?? Number.NaN)

/** What bun test said about each test that failed: the lines since the test before it. */
function failures(out: string): string {
  const lines = out.split('\n')
  const told: string[] = []
  let from = 0
  lines.forEach((line, index) => {
    if (line.startsWith('(fail)')) told.push(...lines.slice(from, index + 1))
    if (/^\((pass|fail|skip|todo)\)|\.test\.ts:$/.test(line)) from = index + 1
  })
  return told.join('\n').slice(-8000)
}

/** What a file must have created in hosts: its own spore, some spore, or none at all. */
function expected(file: string, owner: string | undefined): string {
  if (CREATE_NO_SPORE.has(file)) return 'none'
  return owner === undefined || CREATE_OTHERS[file] !== undefined ? 'some spore' : owner
}

function createdAsExpected(created: ReadonlySet<string>, wanted: string): boolean {
  if (wanted === 'none') return created.size === 0
  if (wanted === 'some spore') return created.size > 0
  return created.has(wanted)
}

describe('the first-party and official spores, isolated', () => {
  it('pass their whole suites with every spore they create running in a host', async () => {
    const owners = new Map<string, string | undefined>()
    for (const [spore, folder] of Object.entries(SPORES))
      for (const file of testFiles(folder)) owners.set(file, spore)
    for (const file of testFiles(INDEX_SUITE)) owners.set(file, undefined)
    // One bun test over every suite, in one process, as the test command runs them inline.
    const run = await isolatedRun([...owners.keys()])
    expect({ code: run.code, fail: count(run.out, 'fail') }, failures(run.out)).toEqual({ code: 0, fail: 0 })
    expect(count(run.out, 'pass')).toBeGreaterThanOrEqual(owners.size)
    const { created } = run
    // Each file created its own spore in a host (the official index's and those listed in
    // CREATE_OTHERS, some spore), or it is listed as creating none and created none.
    const astray = [...owners].flatMap(([file, owner]) => {
      const wanted = expected(file, owner)
      const made = created.get(file)
      if (made !== undefined && createdAsExpected(made, wanted)) return []
      return [
        { file, expected: wanted, created: made === undefined ? 'the file did not run' : [...made].sort() },
      ]
    })
    expect(astray).toEqual([])
    // The lists name only files of these suites.
    const listed = [...CREATE_NO_SPORE, ...Object.keys(CREATE_OTHERS)]
    expect(listed.filter((file) => !owners.has(file))).toEqual([])
  }, 900_000)
})
