// Where the files the core reads at run time are: in the checkout when Bun runs the sources, inside
// the executable when `bun run build` compiled everything into one file (scripts/build.ts embeds
// exactly what is listed here). A path missing from these lists throws from the sources too, so the
// checkout's own tests catch it before an executable does.
import { basename, join, relative, sep } from 'node:path'
import { CHECKOUT, EMBEDDED_ROOT } from './shipped-root.ts'

export { CHECKOUT, COMPILED, EMBEDDED_ROOT } from './shipped-root.ts'

/** Files and folders read at run time, relative to the checkout; embedded under their base names. */
export const SHIPPED_FILES = [
  'core/store/drizzle',
  'translations',
  'sporangia/sources.json',
  'core/http/page/styles.css',
  'node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm',
] as const

/** Modules run in a Worker or a process of their own: compiled as entry points beside the main one. */
export const SHIPPED_ENTRIES = ['core/hosts/host-main.ts', 'core/agent/pool/worker.ts'] as const

/** Where `bun run build` writes the executable, relative to the checkout, unless told another path. */
export const EXECUTABLE_OUTFILE = 'dist/mycelo'

/** The executable's entry point: the bot, or the command-line companion when a command is named. */
export const EXECUTABLE_ENTRY = 'core/boot/executable.ts'

/** Set on a process the executable starts of itself: which of its entries it runs instead of the bot. */
export const EXECUTABLE_RUNS = 'MYCELO_EXECUTABLE_RUNS'

/** A file or folder the core ships with (a path under one of SHIPPED_FILES), where it can be read. */
export function shippedPath(path: string): string {
  const listed = SHIPPED_FILES.find((item) => path === item || path.startsWith(`${item}/`))
  if (listed === undefined) throw new Error(`${path} is not among the files the core ships with`)
  if (CHECKOUT !== undefined) return join(CHECKOUT, path)
  return join(EMBEDDED_ROOT, basename(listed), relative(listed, path))
}

/** The URL a Worker or a process is started from, for one of SHIPPED_ENTRIES. */
export function shippedEntry(path: (typeof SHIPPED_ENTRIES)[number]): URL {
  if (CHECKOUT !== undefined) return Bun.pathToFileURL(join(CHECKOUT, path))
  // Compiled with the checkout as root, so an entry keeps its path inside the executable.
  return new URL(`file://${EMBEDDED_ROOT}/${path.split(sep).join('/')}`)
}
