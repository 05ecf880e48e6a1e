// Start-up runs code of Bun's that an idle bot never runs again: the transpiler and parser for
// every module, the module loader, the JIT tiers compiling start-up's hot loops, migrations. The
// kernel keeps each page of Bun's executable it once read mapped into the process, so that code
// stays in the bot's resident memory (about 25 MiB over a bare `bun`) until memory runs short.
// Once the bot runs, the executable's read-only pages are unmapped here (MADV_DONTNEED); they stay
// in the page cache, and whatever code runs next maps its pages again on first use.
import { readFileSync, realpathSync } from 'node:fs'
import type { Logger } from '@mycelo/septum'

/** Linux's MADV_DONTNEED: the pages are unmapped; a read-only file mapping reads them again on use. */
const MADV_DONTNEED = 4

/** One mapping of the executable that may be released: read-only, and no page of it written. */
export interface ReleasableMapping {
  readonly start: bigint
  readonly length: bigint
  /** Resident kibibytes when read. */
  readonly residentKiB: number
}

/**
 * The mappings of `executable` in an smaps listing that only ever held the file's own bytes. A
 * mapping with anonymous (copied-on-write) pages is left alone: unmapping would lose what was
 * written there (JSC's frozen configuration is such a mapping).
 */
export function releasableMappings(smaps: string, executable: string): ReleasableMapping[] {
  const found: ReleasableMapping[] = []
  let current: { start: bigint; length: bigint; wanted: boolean; rss: number; anonymous: number } | undefined
  const finish = () => {
    if (current?.wanted && current.anonymous === 0)
      found.push({ start: current.start, length: current.length, residentKiB: current.rss })
  }
  for (const line of smaps.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (header) {
      finish()
      const [, from, to, permissions, path] = header as unknown as [string, string, string, string, string]
      const start = BigInt(`0x${from}`)
      const wanted = path === executable && !permissions.includes('w')
      current = { start, length: BigInt(`0x${to}`) - start, wanted, rss: 0, anonymous: -1 }
      continue
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line)
    if (field && current) {
      if (field[1] === 'Rss') current.rss = Number(field[2])
      else current.anonymous = Number(field[2])
    }
  }
  finish()
  return found
}

type Madvise = (start: bigint, length: bigint, advice: number) => number

/** libc's madvise through bun:ffi, or undefined where there is no libc to call (not Linux). */
async function libcMadvise(): Promise<Madvise | undefined> {
  if (process.platform !== 'linux') return undefined
  const { dlopen, FFIType } = await import('bun:ffi')
  const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64'
  for (const name of ['libc.so.6', `libc.musl-${arch}.so.1`]) {
    try {
      const libc = dlopen(name, {
        madvise: { args: [FFIType.u64, FFIType.u64, FFIType.i32], returns: FFIType.i32 },
      })
      return (start, length, advice) => libc.symbols.madvise(start, length, advice)
    } catch {
      // Not this C library: the next name is tried.
    }
  }
  return undefined
}

/** What was released: how many mappings, and how many KiB of them were resident before. */
export interface Released {
  readonly mappings: number
  readonly residentKiB: number
}

/**
 * Unmaps the pages of Bun's executable this process has read so far; answers what it released,
 * or undefined where it cannot (no /proc, no libc to call), in which case nothing changed.
 */
export async function releaseExecutablePages(): Promise<Released | undefined> {
  let smaps: string
  let executable: string
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8')
    executable = realpathSync(process.execPath)
  } catch {
    return undefined
  }
  const mappings = releasableMappings(smaps, executable)
  if (mappings.length === 0) return undefined
  const madvise = await libcMadvise()
  if (madvise === undefined) return undefined
  let released = 0
  let residentKiB = 0
  for (const mapping of mappings) {
    if (madvise(mapping.start, mapping.length, MADV_DONTNEED) !== 0) continue
    released++
    residentKiB += mapping.residentKiB
  }
  return { mappings: released, residentKiB }
}

/**
 * Start-up's aftermath runs for about a second after the bot says it runs: the JIT finishing the
 * compiles start-up queued, the collector after the heap's shrink, the allocator handing memory
 * back. Released at once, a third of the pages came back within that second; released after it,
 * they stay released (measured at 2, 10 and 30 s).
 */
export const RELEASE_AFTER_MS = 1_000

/** Releases the executable's pages once start-up's aftermath is over; the timer keeps no process alive. */
export function releaseAfterStartUp(logger: Logger, afterMs = RELEASE_AFTER_MS): void {
  const release = async () => {
    try {
      const released = await releaseExecutablePages()
      if (released) logger.debug('released start-up code pages', { ...released })
    } catch (error) {
      // Only memory is at stake: the bot runs on as it was, and says why once.
      logger.debug('start-up code pages not released', { error: (error as Error).message })
    }
  }
  setTimeout(() => void release(), afterMs).unref()
}
