// Preloaded before every test (bunfig.toml): no test reads the operator's own mycelo.yaml, data/ or
// MYCELO_* settings. Their MYCELO_* variables are dropped, and MYCELO_CONFIG names an empty file in
// a folder of its own, so whatever loads the configuration without a path, here or in a child
// process, gets the defaults resolved inside that folder instead of the checkout.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Knobs of the test run itself, not an operator's settings: where a browser is, where screenshots
 * go, whether every suite runs its spores in hosts.
 */
export const TEST_KNOBS: ReadonlySet<string> = new Set([
  'MYCELO_CHROMIUM',
  'MYCELO_SCREENSHOTS',
  'MYCELO_ISOLATION',
])

for (const name of Object.keys(process.env)) {
  if (name.startsWith('MYCELO_') && !TEST_KNOBS.has(name)) delete process.env[name]
}

/** A folder no test shares with the operator: the configuration's defaults resolve in it. */
export const HERMETIC_FOLDER = mkdtempSync(join(tmpdir(), 'mycelo-tests-'))
writeFileSync(
  join(HERMETIC_FOLDER, 'mycelo.yaml'),
  "# the tests' own, empty: every field takes its default\n",
)
process.env.MYCELO_CONFIG = join(HERMETIC_FOLDER, 'mycelo.yaml')
process.on('exit', () => rmSync(HERMETIC_FOLDER, { recursive: true, force: true }))
