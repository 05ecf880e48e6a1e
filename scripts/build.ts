// `bun run build [--outfile <path>]`: compiles the bot and its command-line companion into one
// executable (EXECUTABLE_OUTFILE, dist/mycelo) that needs neither Bun nor the checkout beside it. What the
// core reads at run time and the modules it starts as workers come from core/boot/shipped.ts, the
// same lists the core resolves them by, so the two cannot drift apart.
import { basename, join, resolve } from 'node:path'
import { EXECUTABLE_ENTRY, EXECUTABLE_OUTFILE, SHIPPED_ENTRIES, SHIPPED_FILES } from '../core/boot/shipped.ts'

const CHECKOUT = resolve(import.meta.dir, '..')

function outfileFrom(argv: readonly string[]): string {
  const at = argv.indexOf('--outfile')
  if (at === -1) return join(CHECKOUT, EXECUTABLE_OUTFILE)
  const given = argv[at + 1]
  if (given === undefined) throw new Error('--outfile needs a path')
  return resolve(given)
}

// Embedded files keep only their base names: two with the same one would overwrite each other.
const names = SHIPPED_FILES.map((path) => basename(path))
const twice = names.find((name, index) => names.indexOf(name) !== index)
if (twice !== undefined) throw new Error(`two shipped files are both named ${twice}`)

const outfile = outfileFrom(process.argv.slice(2))
const started = performance.now()
const built = await Bun.build({
  entrypoints: [EXECUTABLE_ENTRY, ...SHIPPED_ENTRIES].map((path) => join(CHECKOUT, path)),
  // The checkout as root: a worker's entry keeps its path inside the executable (shippedEntry).
  root: CHECKOUT,
  target: 'bun',
  compile: { outfile, assets: SHIPPED_FILES.map((path) => join(CHECKOUT, path)) },
})
if (!built.success) {
  for (const log of built.logs) console.error(log)
  process.exit(1)
}
console.error(`built ${outfile} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
