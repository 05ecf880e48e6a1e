// The host's runtime built into one module (plus the chunks it imports on demand), so that each of a
// hundred hosts evaluates one small file instead of resolving and transpiling some twenty sources on
// its own (Bun caches neither across workers). Built at the first host a process opens, into a cache
// folder keyed by the sources it was built from: a clone needs no build step, and a changed source
// (or another Bun) is noticed by the next process and built anew.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, extname, join, relative, resolve, sep } from 'node:path'
import { CHECKOUT, shippedEntry } from '../boot/shipped.ts'

const SOURCE = 'core/hosts/host-main.ts'
/** Builds kept beside the newest: a bot still running an older checkout may load its chunks late. */
const KEPT_BUILDS = 4
/** Stamps before 2 did not count this file among a build's inputs. */
const STAMP_FORMAT = 2

/** What a build was made from, kept in its folder. */
interface Stamp {
  /** How stamps are read; a build whose stamp has another is made anew (it may predate an input). */
  readonly format: number
  readonly bun: string
  /** The entry point's file in the build folder. */
  readonly entry: string
  /** Every source the build read, by absolute path, with its fingerprint (see fingerprintOf). */
  readonly inputs: Readonly<Record<string, string>>
  /** Each file of the build (relative to its folder) with the sources it holds. */
  readonly outputs: Readonly<Record<string, readonly string[]>>
}

let located: Promise<Located> | undefined

interface Located {
  /** The URL a host's worker starts from. */
  readonly entry: string
  /** Set when the entry is a build. */
  readonly build?: Built
}

/** A module built with what it imports: its folder, and what it was built from. */
export interface Built {
  /** The URL of the built entry point. */
  readonly url: string
  readonly folder: string
  readonly stamp: Stamp
}

/**
 * The URL a host's worker starts from: the built runtime when its build matches the sources, the
 * source entry in an executable (already one bundle) or when the cache cannot be written.
 */
export async function hostRuntime(): Promise<string> {
  located ??= locate()
  return (await located).entry
}

/**
 * The sources behind the modules a host lists as loaded (its `require.cache`): a built file stands
 * for every source it holds, so a reader asks what the host loaded in the sources' own terms.
 */
export async function runtimeSources(loaded: readonly string[]): Promise<string[]> {
  located ??= locate()
  const { build } = await located
  if (build === undefined) return [...loaded]
  return loaded.flatMap((path) => {
    const file = path.startsWith(`${build.folder}/`) ? path.slice(build.folder.length + 1) : undefined
    return file === undefined ? [path] : [...(build.stamp.outputs[file] ?? [path])]
  })
}

async function locate(): Promise<Located> {
  const source = shippedEntry(SOURCE).href
  if (CHECKOUT === undefined) return { entry: source }
  const cache = join(CHECKOUT, 'node_modules', '.cache', 'mycelo-host-runtime')
  try {
    const built = await builtModule(join(CHECKOUT, SOURCE), cache)
    return { entry: built.url, build: built }
  } catch {
    // A read-only checkout or a failed build costs each host its start-up time, nothing more.
    return { entry: source }
  }
}

/**
 * `entry` built with what it imports into a folder of `cache`: the build made before when it was
 * made by this Bun from the sources as they are now, else a new one. Throws when it cannot build.
 */
export async function builtModule(entry: string, cache: string): Promise<Built> {
  return readCurrent(cache) ?? (await build(entry, cache))
}

/** The build `current` names, if it was made by this Bun from the sources as they are now. */
function readCurrent(cache: string): Built | undefined {
  let folder: string
  let stamp: Stamp
  try {
    folder = join(cache, readFileSync(join(cache, 'current'), 'utf8').trim())
    stamp = JSON.parse(readFileSync(join(folder, 'stamp.json'), 'utf8')) as Stamp
  } catch {
    return undefined
  }
  if (stamp.format !== STAMP_FORMAT || stamp.bun !== Bun.version) return undefined
  for (const [path, fingerprint] of Object.entries(stamp.inputs)) {
    let now: string
    try {
      now = fingerprintOf(path)[1]
    } catch {
      return undefined
    }
    if (now !== fingerprint) return undefined
  }
  return { url: Bun.pathToFileURL(join(folder, stamp.entry)).href, folder, stamp }
}

function hashOf(contents: Uint8Array | string): string {
  return Bun.hash(contents).toString(36)
}

/** Where a package's files end: a source inside node_modules is known by its package's manifest. */
const PACKAGE_FILE = new RegExp(
  `^(.*\\${sep}node_modules\\${sep}(?:@[^\\${sep}]+\\${sep})?[^\\${sep}]+)\\${sep}`,
)

/**
 * The file that stands for a source in a stamp, and what it is now. The checkout's own sources are
 * known by their contents. A package's (several MiB in some hundreds of files, rewritten only by an
 * install, which rewrites its package.json too) by its package.json's size and time written.
 */
function fingerprintOf(path: string, contents?: string): [string, string] {
  const packageRoot = PACKAGE_FILE.exec(path)?.[1]
  if (packageRoot === undefined) return [path, hashOf(contents ?? readFileSync(path))]
  const manifest = join(packageRoot, 'package.json')
  const stats = statSync(manifest)
  return [manifest, `${stats.size}@${stats.mtimeMs}`]
}

const LOADERS: Readonly<Record<string, 'ts' | 'tsx' | 'js' | 'jsx' | 'json'>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.jsx': 'jsx',
  '.json': 'json',
}

/** What import.meta says of a module, as its source file would say it, not the built file. */
const IMPORT_META = /\bimport\.meta\.(dir|dirname|path|filename|file|url)\b/g

function importMetaOf(path: string, member: string): string {
  const value = {
    dir: dirname(path),
    dirname: dirname(path),
    path,
    filename: path,
    file: path.slice(dirname(path).length + 1),
    url: Bun.pathToFileURL(path).href,
  }[member]
  return JSON.stringify(value)
}

/** Builds the runtime into a folder of its own, then names it current; a concurrent builder's twin is kept. */
async function build(entry: string, cache: string): Promise<Built> {
  mkdirSync(cache, { recursive: true })
  const scratch = join(cache, `.building-${process.pid}-${Date.now().toString(36)}`)
  // How it is built is an input too: a build made with other options is not this one.
  const [self, selfPrint] = fingerprintOf(import.meta.path)
  const inputs: Record<string, string> = { [self]: selfPrint }
  try {
    const result = await Bun.build({
      entrypoints: [entry],
      outdir: scratch,
      target: 'bun',
      format: 'esm',
      // What a host loads only when its spore needs it (Effect, zod, the load-fault reader) stays
      // in chunks of its own, imported on demand as the sources import it.
      splitting: true,
      // Packages stay imports: a spore's own `import 'effect'` must meet the very modules the runtime
      // uses (a schema made by one copy of Effect is not a schema to another).
      packages: 'external',
      minify: true,
      metafile: true,
      throw: false,
      plugins: [
        {
          name: 'mycelo-host-runtime-sources',
          setup(builder) {
            builder.onLoad({ filter: /\.[cm]?[jt]sx?$|\.json$/ }, ({ path }) => {
              const contents = readFileSync(path, 'utf8')
              const [file, fingerprint] = fingerprintOf(path, contents)
              inputs[file] = fingerprint
              // A module reading where it lives (the checkout, a package to resolve from) reads its source's place.
              if (!contents.includes('import.meta')) return undefined
              const loader = LOADERS[extname(path)] ?? 'js'
              return {
                contents: contents.replace(IMPORT_META, (_, member) => importMetaOf(path, member)),
                loader,
              }
            })
          },
        },
      ],
    })
    if (!result.success || result.metafile === undefined) {
      const where = (log: (typeof result.logs)[number]) =>
        log.position === null ? '' : ` (${log.position.file}:${log.position.line})`
      throw new Error(
        `${entry} did not build: ${result.logs.map((log) => `${log.message}${where(log)}`).join('; ')}`,
      )
    }
    const outputs: Record<string, string[]> = {}
    for (const [file, output] of Object.entries(result.metafile.outputs)) {
      outputs[file.replace(/^\.\//, '')] = Object.keys(output.inputs).map((input) => resolve(input))
    }
    const point = result.outputs.find((output) => output.kind === 'entry-point')
    if (point === undefined) throw new Error(`${entry} built no entry point`)
    const built = relative(scratch, point.path)
    const stamp: Stamp = { format: STAMP_FORMAT, bun: Bun.version, entry: built, inputs, outputs }
    const text = JSON.stringify(stamp)
    writeFileSync(join(scratch, 'stamp.json'), text)
    const name = hashOf(text)
    const folder = join(cache, name)
    try {
      renameSync(scratch, folder)
    } catch {
      // Another process built the same sources first: its folder is the same build.
      rmSync(scratch, { recursive: true, force: true })
    }
    const pointer = join(cache, `.current-${process.pid}`)
    writeFileSync(pointer, name)
    renameSync(pointer, join(cache, 'current'))
    prune(cache, name)
    return { url: Bun.pathToFileURL(join(folder, built)).href, folder, stamp }
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true })
    throw error
  }
}

/** Keeps the newest builds: each source change makes one, and a bot may still run from an older. */
function prune(cache: string, keep: string): void {
  const folders = readdirSync(cache, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== keep)
    .map((entry) => ({ name: entry.name, at: statSync(join(cache, entry.name)).mtimeMs }))
  const builds = folders.filter((folder) => !folder.name.startsWith('.')).sort((a, b) => b.at - a.at)
  // A build left half-made by a process that ended mid-way: an hour is far longer than any build.
  const abandoned = folders.filter(
    (folder) => folder.name.startsWith('.') && Date.now() - folder.at > 3_600_000,
  )
  for (const old of [...builds.slice(KEPT_BUILDS), ...abandoned]) {
    rmSync(join(cache, old.name), { recursive: true, force: true })
  }
}
