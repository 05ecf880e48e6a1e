// Preloaded with MYCELO_ISOLATION=worker (bunfig.toml): a spore's own test suite that imports its
// module (`import module from '../src/index.ts'`) is handed that module as the bot would load it
// isolated — its default export's create(), schema and migrations answered from a host of its
// own, every context the test hands it crossing the bridge — while its named exports (helpers the
// tests build on) and its settings schema, which a test's harness parses synchronously where the
// core awaits its host, stay as they are. This is how the first-party and official suites run
// isolated. Every spore a host creates is said on standard error (host-marks.ts), under the test
// file that made it, bots in processes of their own included.

import { afterEach } from 'bun:test'
import { existsSync, readFileSync, writeSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { plugin } from 'bun'
import { HERMETIC_FOLDER } from './hermetic.ts'

const HOSTED = 'hosted-spore'
/** A test file of a spore (spores/x/test, sporangia/official/x/test) importing that spore's entry. */
const SPORE_TEST = /[\\/](spores|official)[\\/][^\\/]+[\\/]test[\\/]/

if (process.env.MYCELO_ISOLATION === 'worker') {
  plugin({
    name: 'hosted spores',
    setup(build) {
      build.onResolve({ filter: /(^|[\\/])src[\\/]index\.ts$/ }, (args) => {
        if (!SPORE_TEST.test(args.importer)) return undefined
        const path = resolve(dirname(args.importer), args.path)
        return { path, namespace: HOSTED }
      })
      build.onLoad({ filter: /.*/, namespace: HOSTED }, (args) => {
        const dir = dirname(dirname(args.path))
        const loader = join(import.meta.dir, 'hosted-module.ts')
        return {
          loader: 'ts',
          contents: `import { hostedModule } from ${JSON.stringify(loader)}
import inline from ${JSON.stringify(args.path)}
export * from ${JSON.stringify(args.path)}
export default await hostedModule(${JSON.stringify(dir)}, ${JSON.stringify(basename(dir))}, inline)
`,
        }
      })
    },
  })
  // Written at once, so that each line lands under the test file bun test is reporting.
  const say = (line: string) => writeSync(2, line)
  const { markHostedSpores } = await import('./host-marks.ts')
  markHostedSpores(say)
  // The bots tests start in processes of their own (which inherit this environment) mark theirs here.
  const marks = join(HERMETIC_FOLDER, 'host-marks.txt')
  process.env.MYCELO_HOST_MARKS = marks
  const preload = `--preload ${join(import.meta.dir, 'host-marks-preload.ts')}`
  process.env.BUN_OPTIONS = [process.env.BUN_OPTIONS, preload].filter(Boolean).join(' ')
  let copied = 0
  afterEach(() => {
    if (!existsSync(marks)) return
    const text = readFileSync(marks, 'utf8')
    if (text.length > copied) say(text.slice(copied))
    copied = text.length
  })
}
