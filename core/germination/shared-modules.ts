import { CHECKOUT, COMPILED, EMBEDDED_ROOT, SEP } from '../boot/shipped-root.ts'

/** What a spore may import without shipping it: the contract, and the zod its schemas are written in. */
const SHARED_PACKAGES = ['@mycelo/septum', 'zod'] as const

/**
 * The checkout the core runs from: a file inside it already resolves both through its node_modules.
 * An executable has no checkout on disk: every spore's source is outside its tree.
 */
const CORE_TREE = CHECKOUT ?? EMBEDDED_ROOT

/**
 * In an executable the core's copies are not files a spore can import: they are offered as
 * modules of their own under these names, the very objects the core holds. Imported when a spore
 * first asks, not before: a spore host that runs one which needs neither never loads them.
 */
const EMBEDDED_COPIES: Readonly<Record<string, () => Promise<object>>> = {
  '@mycelo/septum': () => import('@mycelo/septum'),
  zod: () => import('zod'),
}
const EMBEDDED_PREFIX = 'mycelo-core:'

/** A bare import of a shared package, or of one of its subpaths, in any of the forms a module uses. */
const SHARED_IMPORT =
  /(\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])((?:@mycelo\/septum|zod)(?:\/[^'"\s]*)?)\2/g

const LOADERS = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.jsx': 'jsx',
} as const

let shared = false

/** Checks a spore's source before it is evaluated; throwing refuses the import (a host's guard). */
export type SourceGuard = (path: string, source: string) => void
let guard: SourceGuard | undefined

/** Set once in a host, before its spore is imported: every source of the spore passes through it. */
export function guardSources(check: SourceGuard): void {
  guard = check
}

/**
 * Lets a spore outside the core's tree (a folder elsewhere, a bundled release) import
 * `@mycelo/septum`, `zod` and their subpaths: each resolves to the core's own copy, the very
 * module the core holds, unless the spore ships its own in a node_modules of its own. Idempotent.
 *
 * Bun's runtime plugins do not run onResolve for a bare specifier, so this hooks onLoad instead:
 * a source file outside the tree has those specifiers rewritten to the core's resolved paths.
 *
 * A reload imports `<entry>?v=<n>`: the same query is carried onto every relative import of a file
 * loaded that way, so the spore's own files are all evaluated anew, not only its entry (Bun keys its
 * module cache by the specifier, query included).
 */
export function shareContractModules(): void {
  if (shared) return
  shared = true
  Bun.plugin({
    name: 'mycelo-shared-contract-modules',
    setup(build) {
      if (COMPILED) {
        for (const [name, copy] of Object.entries(EMBEDDED_COPIES))
          build.module(`${EMBEDDED_PREFIX}${name}`, async () => ({
            exports: { ...(await copy()) },
            loader: 'object',
          }))
      }
      build.onLoad({ filter: sporeSources() }, ({ path }) => loadSporeSource(path))
    },
  })
}

/** A spore's source as the core has Bun evaluate it: checked by the guard, imports rewritten. */
export async function loadSporeSource(specified: string): Promise<{ contents: string; loader: Loader }> {
  const query = VERSION_QUERY.exec(specified)?.[0]
  const path = query === undefined ? specified : specified.slice(0, -query.length)
  const source = COMPILED ? await bundledSource(path) : await Bun.file(path).text()
  guard?.(path, source)
  const shared = path.startsWith(`${CORE_TREE}${SEP}`) ? source : withSharedImports(source, path)
  return {
    contents: query === undefined ? shared : withVersionedImports(shared, query),
    loader: COMPILED ? 'js' : (LOADERS[EXTENSION.exec(path)?.[0] as keyof typeof LOADERS] ?? 'js'),
  }
}

/**
 * An executable resolves no package from disk: a spore's module is bundled with what it imports
 * (its own files and node_modules) when it is loaded, as a strain is packed, the shared packages
 * left to the core's copies. The guard then reads the whole bundle, dependencies included.
 */
async function bundledSource(path: string): Promise<string> {
  // The packing tool's list, asked here only: it reads files with node:fs, which a host spares.
  const { PROVIDED } = await import('../../sporangia/tool/bundle.ts')
  const built = await Bun.build({
    entrypoints: [path],
    target: 'bun',
    format: 'esm',
    external: PROVIDED,
    throw: false,
  })
  const output = built.outputs.find((artifact) => artifact.kind === 'entry-point')
  if (!built.success || output === undefined)
    throw new Error(built.logs.map(String).join('\n') || `${path} did not bundle`)
  return output.text()
}

type Loader = (typeof LOADERS)[keyof typeof LOADERS]

const VERSION_QUERY = /\?v=\d+$/

/** A file's extension, as node:path's extname reads one of LOADERS' (a host spares loading it). */
const EXTENSION = /\.[^./\\]+$/

/** A relative import, in any of the forms a module uses, with no query of its own. */
const RELATIVE_IMPORT = /(\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"\s?]*)\2/g

/** The source with each relative import carrying the reload's query: a fresh instance of that file too. */
export function withVersionedImports(source: string, query: string): string {
  return source.replace(
    RELATIVE_IMPORT,
    (_whole, lead: string, quote: string, specifier: string) => `${lead}${quote}${specifier}${query}${quote}`,
  )
}

/**
 * A spore's own source, never one in a node_modules: anywhere outside the core's tree, and inside
 * it (the first-party spores) when imported for a reload.
 */
function sporeSources(): RegExp {
  const tree = `${CORE_TREE}${SEP}`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  const nodeModules = `[\\\\/]node_modules[\\\\/]`
  const source = `\\.(?:m?ts|tsx|m?js|jsx)`
  return new RegExp(`^(?!.*${nodeModules})(?:(?!${tree}).*${source}(?:\\?v=\\d+)?|.*${source}\\?v=\\d+)$`)
}

/** The source with each shared import the spore does not ship pointed at the core's copy. */
export function withSharedImports(source: string, path: string): string {
  return source.replace(SHARED_IMPORT, (whole, lead: string, _quote: string, specifier: string) => {
    const target = coreCopy(specifier)
    // An executable cannot resolve a spore's own copy from disk: the core's is the only one.
    if (target === undefined || (!COMPILED && shipsOwn(path, packageOf(specifier)))) return whole
    return `${lead}${JSON.stringify(target)}`
  })
}

function packageOf(specifier: string): string {
  return SHARED_PACKAGES.find((name) => specifier === name || specifier.startsWith(`${name}/`)) ?? specifier
}

/** The file the core itself loads for this specifier; undefined for a subpath it does not have. */
function coreCopy(specifier: string): string | undefined {
  if (COMPILED) return specifier in EMBEDDED_COPIES ? `${EMBEDDED_PREFIX}${specifier}` : undefined
  try {
    return Bun.resolveSync(specifier, import.meta.dir)
  } catch {
    return undefined
  }
}

/**
 * Node's lookup: a node_modules/<package> in the importing file's folder or any folder above it.
 * node:fs and node:path are loaded here, not at the top: a spore host whose spore imports neither
 * package never pays for them.
 */
function shipsOwn(file: string, name: string): boolean {
  const { existsSync } = require('node:fs') as typeof import('node:fs')
  const { dirname, join } = require('node:path') as typeof import('node:path')
  for (let current = dirname(file); ; current = dirname(current)) {
    if (existsSync(join(current, 'node_modules', name, 'package.json'))) return true
    if (dirname(current) === current) return false
  }
}
