// Builds dist/ for Node: Bun resolves the package to src/, Node to these files (export conditions).
import { rm } from 'node:fs/promises'
import { join } from 'node:path'

const here = import.meta.dir
const outdir = join(here, 'dist')
await rm(outdir, { recursive: true, force: true })
const result = await Bun.build({
  entrypoints: [join(here, 'src/index.ts'), join(here, 'src/conformance/index.ts')],
  root: join(here, 'src'),
  outdir,
  target: 'node',
  format: 'esm',
  // Shared chunks keep one copy of each class, so instanceof holds across both entry points.
  splitting: true,
  packages: 'external',
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
console.log(`septum: built ${result.outputs.length} files into dist/`)
