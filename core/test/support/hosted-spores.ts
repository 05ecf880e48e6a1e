// Preloaded with MYCELO_ISOLATION=worker (bunfig.toml): a spore's own test suite that imports its
// module (`import module from '../src/index.ts'`) is handed that module as the bot would load it
// isolated — its default export's create(), schema and migrations answered from a host of its
// own, every context the test hands it crossing the bridge — while its named exports (helpers the
// tests build on) and its settings schema, which a test's harness parses synchronously where the
// core awaits its host, stay as they are. This is how the first-party and official suites run
// isolated.

import { basename, dirname, join, resolve } from 'node:path'
import { plugin } from 'bun'

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
}
