// Where an idle bot's memory goes: processes that stop short of the bot, each adding one layer to
// the one before, measured beside it in the same run. The layers are read from the core's own
// import graph (static imports from core/boot/main.ts), so they follow the code as it changes:
//   features   Bun's own machinery the bot uses at idle: the builtin modules the core imports, a
//              SQLite file in WAL mode, Intl in two locales, an HTTP server;
//   libraries  + the packages the core imports (zod, yaml, drizzle, pino, intl-messageformat …);
//   modules    + the core's own modules, imported without running anything.
// Each releases the executable's pages it read once loaded, as the bot does once it runs.
// The bot itself adds what start-up does (the store, germination, catalogues) and its spores.
import { readFileSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join } from 'node:path'

export const LAYERS = ['features', 'libraries', 'modules'] as const
export type Layer = (typeof LAYERS)[number]

interface ImportGraph {
  /** `node:…` and `bun:…` specifiers the core imports. */
  readonly builtins: Set<string>
  /** Package entry points the core imports, resolved to files. */
  readonly packages: Set<string>
}

const BUILTINS = new Set(builtinModules)
const transpiler = new Bun.Transpiler({ loader: 'ts' })

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || specifier.startsWith('bun:') || BUILTINS.has(specifier)
}

/** The core's static imports, from its entry, not following into packages (their entries are listed). */
function importGraph(entry: string): ImportGraph {
  const builtins = new Set<string>()
  const packages = new Set<string>()
  const seen = new Set([entry])
  const queue = [entry]
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const { path, kind } of transpiler.scan(readFileSync(file, 'utf8')).imports) {
      if (kind === 'dynamic-import') continue
      if (isBuiltin(path)) {
        builtins.add(path.startsWith('bun:') || path.startsWith('node:') ? path : `node:${path}`)
        continue
      }
      const resolved = Bun.resolveSync(path, dirname(file))
      const own = !resolved.includes('/node_modules/') || path.startsWith('@mycelo/')
      if (!own) packages.add(resolved)
      // A JSON or text file imported is data, not a module with imports of its own.
      else if (/\.[cm]?[jt]sx?$/.test(resolved) && !seen.has(resolved)) {
        seen.add(resolved)
        queue.push(resolved)
      }
    }
  }
  return { builtins, packages }
}

const FEATURES = `
const database = new (await import('bun:sqlite')).Database(join(folder, 'layer.db'), { create: true })
database.run('PRAGMA journal_mode = WAL')
database.run('CREATE TABLE IF NOT EXISTS t (a TEXT)')
database.query('SELECT a FROM t WHERE a = ?').all('x')
for (const locale of ['en', 'fr']) {
  new Intl.PluralRules(locale).select(1)
  new Intl.NumberFormat(locale).format(1.5)
}
Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
`

/** Script text that releases the executable's pages as the bot does (core/boot/release-pages.ts), when the bot does. */
export function releasingPages(root: string): string {
  const module = JSON.stringify(join(root, 'core/boot/release-pages.ts'))
  return `{ const pages = await import(${module}); await Bun.sleep(pages.RELEASE_AFTER_MS); await pages.releaseExecutablePages() }`
}

/** Writes the script for `layer` into `folder` and answers its path; it prints `ready` when loaded. */
export function layerScript(root: string, folder: string, layer: Layer): string {
  const main = join(root, 'core/boot/main.ts')
  const graph = importGraph(main)
  const upTo = LAYERS.indexOf(layer)
  const imports = [...graph.builtins].map((specifier) => JSON.stringify(specifier))
  if (upTo >= 1) imports.push(...[...graph.packages].map((path) => JSON.stringify(path)))
  if (upTo >= 2) {
    // main.ts runs the bot when imported: its own imports stand for it.
    for (const { path, kind } of transpiler.scan(readFileSync(main, 'utf8')).imports) {
      if (kind !== 'dynamic-import' && path.startsWith('.'))
        imports.push(JSON.stringify(join(dirname(main), path)))
    }
  }
  const script = join(folder, `${layer}.ts`)
  writeFileSync(
    script,
    [
      `import { join } from 'node:path'`,
      `const folder = ${JSON.stringify(folder)}`,
      // Held, so that nothing imported is collected as unused.
      `;(globalThis as { held?: unknown }).held = await Promise.all([${imports.join(', ')}].map((path) => import(path)))`,
      FEATURES,
      // As the bot does once it runs: each layer is measured as the bot would hold it.
      releasingPages(root),
      `console.log('ready')`,
      'setInterval(() => {}, 60_000)',
    ].join('\n'),
  )
  return script
}
