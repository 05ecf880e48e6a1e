import { CHECKOUT, EMBEDDED_ROOT, SEP } from '../boot/shipped-root.ts'
import { guardSources, loadSporeSource } from '../germination/shared-modules.ts'

/** What an isolated spore may not import unless the operator allows it for that spore. */
export const GUARDED_IMPORTS = ['bun:ffi', 'bun:sqlite', 'node:child_process', 'Bun.spawn', 'core'] as const
export type GuardedImport = (typeof GUARDED_IMPORTS)[number]

/** The guarded imports the operator allows one spore. */
export type ImportAllowance = readonly GuardedImport[]

/**
 * The core's own modules: a spore reaching into them would hold the bot's store and secrets. In an
 * executable they are the ones it embeds, not files on disk.
 */
const CORE_MODULES = `${CHECKOUT === undefined ? EMBEDDED_ROOT : `${CHECKOUT}${SEP}core`}${SEP}`

/** What may be a path (relative, or absolute on any platform) rather than a package's name. */
const PATH_LIKE = /^(?:\.|[\\/]|[A-Za-z]:)/

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])([^'"\s]+)\1/g
const SPAWN = /\bBun\s*\.\s*spawn(?:Sync)?\b/

/** Which guarded import a specifier is, if any. */
function guardedBy(specifier: string, from: string): GuardedImport | undefined {
  if (specifier === 'bun:ffi' || specifier === 'bun:sqlite') return specifier
  if (specifier === 'node:child_process' || specifier === 'child_process') return 'node:child_process'
  // A file: URL is an absolute path spelled otherwise.
  if (specifier.startsWith('file:')) return isCore(fileOf(specifier))
  if (PATH_LIKE.test(specifier)) {
    // Loaded here, not at the top: a spore of one file (a bundled strain) never needs it.
    const { dirname, isAbsolute, resolve } = require('node:path') as typeof import('node:path')
    if (!specifier.startsWith('.') && !isAbsolute(specifier)) return undefined
    return isCore(isAbsolute(specifier) ? specifier : resolve(dirname(from), specifier))
  }
  return undefined
}

function isCore(target: string | undefined): 'core' | undefined {
  return target?.startsWith(CORE_MODULES) === true ? 'core' : undefined
}

/** The path a file: URL names; a URL that names none cannot be imported either. */
function fileOf(url: string): string | undefined {
  try {
    return Bun.fileURLToPath(url)
  } catch {
    return undefined
  }
}

/** The first guarded import a source makes that is not allowed, with the specifier as written. */
export function refusedImport(
  path: string,
  source: string,
  allow: ImportAllowance,
): { readonly guarded: GuardedImport; readonly written: string } | undefined {
  for (const match of source.matchAll(SPECIFIER)) {
    const written = match[2]!
    const guarded = guardedBy(written, path)
    if (guarded !== undefined && !allow.includes(guarded)) return { guarded, written }
  }
  if (!allow.includes('Bun.spawn') && SPAWN.test(source))
    return { guarded: 'Bun.spawn', written: 'Bun.spawn' }
  return undefined
}

/** Raised for a refused import; germination words it as the module's load failure. */
export class ImportRefused extends Error {
  override readonly name = 'ImportRefused'
}

/**
 * Installed in a host before its spore loads: each of the spore's sources is read for guarded
 * imports, and Bun.spawn is taken away at run time. Where Bun resolves a module without showing the
 * core its source (a specifier computed at run time), this cannot see it: defence in depth, not a wall.
 */
export function guardImports(allow: ImportAllowance, realDir: string): void {
  // Every source under the spore's folder (its node_modules aside) passes through the guard, wherever
  // the folder is: the core's shared loader only sees sources outside the checkout. The folder comes
  // by its real path (the core resolves it), as Bun names the files it loads.
  const root = `${realDir}${SEP}`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  Bun.plugin({
    name: 'mycelo-host-import-guard',
    setup(build) {
      build.onLoad({ filter: new RegExp(`^${root}(?!.*[\\\\/]node_modules[\\\\/])`) }, ({ path }) =>
        loadSporeSource(path),
      )
    },
  })
  guardSources((path, source) => {
    const refused = refusedImport(path, source, allow)
    if (refused === undefined) return
    throw new ImportRefused(
      `${path} imports ${refused.written}, which an isolated spore may not use unless the operator allows "${refused.guarded}" for it (isolation.allow)`,
    )
  })
  if (!allow.includes('Bun.spawn')) {
    const refuse = () => {
      throw new ImportRefused('Bun.spawn is not available to an isolated spore unless the operator allows it')
    }
    Object.assign(Bun, { spawn: refuse, spawnSync: refuse })
  }
}
