// Reads a strain archive (a gzipped tar) entry by entry with node-tar's Parser, which reports
// each entry's type, path and size, counting what it expands to as it goes. The first thing
// wrong refuses the whole archive; nothing is read past it.
import type { ReadEntry } from 'tar'
import { type Refusal, refused } from '../../mycelium/outcome.ts'
import { entryPath } from './entry-path.ts'

export interface ArchiveLimits {
  /** The most bytes the tar inside may be, headers included. */
  readonly expandedBytes: number
  /** The most entries it may hold (folders included). */
  readonly entries: number
}

export interface ScannedEntry {
  readonly kind: 'file' | 'folder'
  /** The path's segments, as unpacked; a folder with none is the archive's own `./`. */
  readonly segments: readonly string[]
  /** The name as the archive spells it, for a refusal. */
  readonly path: string
}

/** Where a scan's entries go when they are unpacked; each call is awaited before the next. */
export interface EntrySink {
  folder(entry: ScannedEntry): Promise<void>
  file(entry: ScannedEntry): Promise<void>
  /** Bytes of the file last opened, in order. */
  data(chunk: Uint8Array): Promise<void>
  /** The file last opened is complete. */
  close(): Promise<void>
}

export interface ScanOptions {
  readonly spore: string
  readonly bytes: Uint8Array
  readonly limits: ArchiveLimits
  /** Absent for the first pass, which only reads. */
  readonly sink?: EntrySink
}

export type Scan = { readonly ok: true; readonly entries: readonly ScannedEntry[] } | Refusal

type Step =
  | { readonly op: 'folder' | 'file'; readonly entry: ScannedEntry }
  | { readonly op: 'data'; readonly chunk: Uint8Array }
  | { readonly op: 'close' }

/** A gzip member starts with these; a tar that starts with them is an archive inside an archive. */
const GZIP_MAGIC = [0x1f, 0x8b]

const TYPE_REFUSALS: Readonly<Record<string, string>> = {
  SymbolicLink: 'archive_symlink',
  Link: 'archive_hardlink',
  CharacterDevice: 'archive_device',
  BlockDevice: 'archive_device',
  FIFO: 'archive_fifo',
}

/** Every entry of the archive, or the refusal of the first thing wrong with it. */
export async function scanArchive(options: ScanOptions): Promise<Scan> {
  const { spore, limits, sink } = options
  const entries: ScannedEntry[] = []
  const steps: Step[] = []
  let refusal: Refusal | undefined
  let expanded = 0
  let sawEnd = false
  const refuse = (key: string, params: Record<string, unknown> = {}) => {
    refusal ??= refused(key, { spore, ...params })
  }

  // Imported here, not at the top: an idle bot installs nothing, and tar with zlib costs it memory.
  const [{ Parser }, { createGunzip }] = await Promise.all([import('tar'), import('node:zlib')])
  // Brotli and zstd sniffing off: the only compression accepted is the outer gzip, counted here.
  const parser = new Parser({ brotli: false, zstd: false })
  parser.on('warn', () => refuse('archive_tar_broken'))
  parser.on('eof', () => {
    sawEnd = true
  })
  // A GNU long name or pax record keeps what follows a NUL out of the name it reports.
  parser.on('meta', (meta: string) => {
    if (meta.replace(/\0+$/, '').includes('\0')) refuse('archive_path_nul')
  })
  parser.on('ignoredEntry', (entry: ReadEntry) => refuse('archive_entry_unsupported', { type: entry.type }))
  parser.on('entry', (entry: ReadEntry) => {
    const scanned = admit(entry, entries.length + 1)
    if (scanned === undefined) return void entry.resume()
    entries.push(scanned)
    if (scanned.kind === 'folder') {
      // A folder has no body, but the parser waits for it to flow before the next entry.
      entry.resume()
      return void steps.push({ op: 'folder', entry: scanned })
    }
    steps.push({ op: 'file', entry: scanned })
    let received = 0
    entry.on('data', (chunk: Buffer) => {
      received += chunk.length
      steps.push({ op: 'data', chunk })
    })
    entry.on('end', () => {
      // Never trust a header: a file must hold exactly the bytes it claims.
      if (received !== entry.size) refuse('archive_tar_broken')
      steps.push({ op: 'close' })
    })
  })

  /** The entry as it will be unpacked, or undefined once it has refused the archive. */
  function admit(entry: ReadEntry, count: number): ScannedEntry | undefined {
    if (count > limits.entries) return void refuse('archive_too_many_entries', { limit: limits.entries })
    const typeRefusal = TYPE_REFUSALS[entry.type]
    if (typeRefusal !== undefined) return void refuse(typeRefusal, { path: shown(entry.path) })
    const kind = entry.type === 'Directory' ? 'folder' : /^(Old)?File$/.test(entry.type) ? 'file' : undefined
    if (kind === undefined) return void refuse('archive_entry_unsupported', { type: entry.type })
    // The path as any pax or GNU long name record left it: the one it would be unpacked under.
    const checked = entryPath(entry.path)
    if (!checked.ok) return void refuse(checked.problem, { path: shown(entry.path) })
    if (kind === 'file' && checked.segments.length === 0)
      return void refuse('archive_path_unclean', { path: '.' })
    return { kind, segments: checked.segments, path: shown(entry.path) }
  }

  // A fault of the sink (the disk) is the caller's to handle, never taken for a damaged archive.
  let fault: { error: unknown } | undefined
  async function drain(): Promise<void> {
    try {
      for (let step = steps.shift(); step !== undefined && refusal === undefined; step = steps.shift()) {
        if (sink === undefined) continue
        if (step.op === 'folder') await sink.folder(step.entry)
        else if (step.op === 'file') await sink.file(step.entry)
        else if (step.op === 'data') await sink.data(step.chunk)
        else await sink.close()
      }
    } catch (error) {
      fault = { error }
      throw error
    } finally {
      steps.length = 0
    }
  }

  const gunzip = createGunzip()
  gunzip.end(Buffer.from(options.bytes.buffer, options.bytes.byteOffset, options.bytes.byteLength))
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      if (expanded === 0 && GZIP_MAGIC.every((byte, at) => chunk[at] === byte)) refuse('archive_tar_broken')
      expanded += chunk.length
      // Stop the moment the limit is passed: a gzip bomb is never inflated further.
      if (expanded > limits.expandedBytes) refuse('archive_too_large', { limit: limits.expandedBytes })
      if (refusal === undefined) parser.write(chunk)
      await drain()
      if (refusal !== undefined) break
    }
  } catch (error) {
    if (fault !== undefined) throw error
    refuse('archive_gzip_broken')
  } finally {
    gunzip.destroy()
  }
  if (refusal !== undefined) return refusal
  await new Promise<void>((resolve) => {
    parser.once('end', resolve)
    parser.once('close', resolve)
    parser.end()
  })
  await drain()
  if (refusal === undefined && !sawEnd) refuse('archive_tar_broken')
  return refusal ?? { ok: true, entries }
}

/**
 * A name as a refusal may quote it: bounded, with its control characters and the marks that
 * reorder text (which could make it read as another name) made visible.
 */
function shown(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const visible = name.replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '?')
  return visible.length > 120 ? `${visible.slice(0, 117)}...` : visible
}
