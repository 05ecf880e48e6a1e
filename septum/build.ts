// Builds dist/ for Node and for TypeScript readers outside the checkout: ESM JavaScript (Bun.build)
// and declarations (tsc). Bun resolves the package to src/, Node to these files (export conditions).
// `npm pack` runs this through `prepack`, so a tarball always carries a fresh dist/.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

const here = import.meta.dir
const outdir = join(here, 'dist')
/** The public entry points; each is one `exports` subpath of package.json. */
const ENTRIES = ['index.ts', 'conformance/index.ts', 'testing/index.ts'] as const

await rm(outdir, { recursive: true, force: true })
const result = await Bun.build({
  entrypoints: ENTRIES.map((entry) => join(here, 'src', entry)),
  root: join(here, 'src'),
  outdir,
  target: 'node',
  format: 'esm',
  // Shared chunks keep one copy of each class, so instanceof holds across the entry points.
  splitting: true,
  packages: 'external',
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}

const tsc = join(dirname(Bun.resolveSync('typescript/package.json', here)), 'bin', 'tsc')
const declarations = Bun.spawnSync([tsc, '-p', join(here, 'tsconfig.build.json')], {
  stdout: 'inherit',
  stderr: 'inherit',
})
if (declarations.exitCode !== 0) process.exit(declarations.exitCode ?? 1)
const rewritten = await rewriteSpecifiers(outdir)
console.log(`septum: built ${result.outputs.length} modules and ${rewritten} declaration files into dist/`)

/**
 * The sources import each other with `.ts` specifiers, which tsc copies into the declarations; a
 * reader's compiler looks for `.js` beside a `.d.ts`, so the relative ones are renamed.
 */
async function rewriteSpecifiers(folder: string): Promise<number> {
  let count = 0
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue
    const path = join(entry.parentPath, entry.name)
    const text = await readFile(path, 'utf8')
    await writeFile(path, text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]*?)\.ts\2/g, '$1$2$3.js$2'))
    count++
  }
  return count
}
