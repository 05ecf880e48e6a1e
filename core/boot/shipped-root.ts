// Where the core runs from, worked out without node:path: a spore host imports this, and node:path
// is the only built-in module a host would otherwise load as it starts (some 2 ms of each host's
// CPU). What reads or joins paths beyond this is in shipped.ts.

/** Where Bun keeps a compiled executable's own files (its modules and what was embedded). */
export const EMBEDDED_ROOT = '/$bunfs/root'

/** True inside an executable `bun run build` produced, where no checkout is on disk. */
export const COMPILED = import.meta.path.startsWith('/$bunfs/')

/** node:path's `sep`, for the modules a host loads as it starts. */
export const SEP = process.platform === 'win32' ? '\\' : '/'

/**
 * The checkout the sources run from; undefined in an executable, which carries no checkout. A real
 * path: Bun names a module by its real path, links resolved.
 */
export const CHECKOUT: string | undefined = COMPILED
  ? undefined
  : Bun.fileURLToPath(new URL('../..', import.meta.url)).replace(/[\\/]$/, '')
