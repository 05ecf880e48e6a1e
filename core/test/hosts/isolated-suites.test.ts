import { describe, expect, it } from 'bun:test'
import { join } from 'node:path'

// The first-party and official spores, run isolated (MYCELO_ISOLATION=worker): the conformance kit
// against each one's module loaded in a host (core/test/support/hosted-spores.ts hands a suite the
// hosted module), and the suites that drive a spore through a running bot, every spore in a host.

const ROOT = join(import.meta.dir, '..', '..', '..')

/** Each spore's suite holding its conformance check, by spore. */
const CONFORMANCE: Record<string, string> = {
  admin: 'spores/admin/test/conformance.test.ts',
  console: 'spores/console/test/console.test.ts',
  discord: 'spores/discord/test/conformance.test.ts',
  help: 'spores/help/test/help.test.ts',
  signal: 'spores/signal/test/conformance.test.ts',
  web: 'spores/web/test/web.test.ts',
  'flood-gate': 'sporangia/official/flood-gate/test/flood-gate.test.ts',
  'group-gate': 'sporangia/official/group-gate/test/group-gate.test.ts',
  matrix: 'sporangia/official/matrix/test/conformance.test.ts',
  movies: 'sporangia/official/movies/test/movies.test.ts',
  radarr: 'sporangia/official/radarr/test/radarr.test.ts',
  reminders: 'sporangia/official/reminders/test/reminders.test.ts',
  telegram: 'sporangia/official/telegram/test/conformance.test.ts',
  webhooks: 'sporangia/official/webhooks/test/webhooks.test.ts',
}

/**
 * Suites that run spores in a real bot, every one in a host: a rhiza whose api is a getter answering
 * only once started (radarr) with its consumer (movies) and admin; an inhibitor keeping state in its
 * storage across a restart (flood-gate); a hypha that knows which message it answers from its own
 * AsyncLocalStorage (telegram). The other suites that drive a bot take minutes isolated on
 * a shared machine; MYCELO_ISOLATION=worker bun test runs them all.
 */
const THROUGH_A_BOT = [
  'sporangia/official/movies/test/e2e.test.ts',
  'sporangia/official/flood-gate/test/e2e.test.ts',
  // A group reply quotes the message it answers: the hypha's async context crosses the bridge.
  'sporangia/official/telegram/test/e2e.test.ts',
]

async function isolatedRun(args: readonly string[]): Promise<{ code: number; out: string }> {
  const child = Bun.spawn([process.execPath, 'test', '--timeout', '30000', ...args], {
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
  return { code, out: `${stdout}\n${stderr}` }
}

/** bun test's own count line, e.g. ` 17 pass`. */
const count = (out: string, what: 'pass' | 'fail') =>
  Number(new RegExp(`^\\s*(\\d+) ${what}$`, 'm').exec(out)?.[1] ?? Number.NaN)

describe('the first-party and official spores, isolated', () => {
  it('pass the conformance kit with their modules loaded in hosts', async () => {
    const { code, out } = await isolatedRun([...Object.values(CONFORMANCE), '-t', 'conform'])
    expect({ code, fail: count(out, 'fail') }).toEqual({ code: 0, fail: 0 })
    expect(count(out, 'pass')).toBeGreaterThanOrEqual(Object.keys(CONFORMANCE).length)
    for (const spore of Object.keys(CONFORMANCE)) expect(out).toContain(`hosted spore created: ${spore}\n`)
  }, 120_000)

  it('pass their suites that drive them through a running bot, every spore in a host', async () => {
    const { code, out } = await isolatedRun(THROUGH_A_BOT)
    expect({ code, fail: count(out, 'fail') }).toEqual({ code: 0, fail: 0 })
    expect(count(out, 'pass')).toBeGreaterThan(0)
  }, 120_000)
})
