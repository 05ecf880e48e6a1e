// Tar bytes written by hand, 512-byte ustar header by header, for the shapes node-tar refuses to
// create: hostile names, links, devices, lying sizes, pax and GNU records, no end marker.

export interface RawEntry {
  readonly name: string
  /** The typeflag: '0' file (the default), '5' folder, '1' hard link, '2' symlink, 'x' pax, 'L' GNU long name… */
  readonly type?: string
  readonly data?: Uint8Array | string
  /** The size the header states; the data's length unless given. */
  readonly size?: number
  readonly linkname?: string
  /** The ustar prefix field, joined to the name with a slash by readers. */
  readonly prefix?: string
  /** A checksum other than the right one. */
  readonly badChecksum?: boolean
}

const BLOCK = 512
const encoder = new TextEncoder()

function bytesOf(data: Uint8Array | string | undefined): Uint8Array {
  if (data === undefined) return new Uint8Array()
  return typeof data === 'string' ? encoder.encode(data) : data
}

function put(header: Uint8Array, offset: number, length: number, text: string): void {
  const bytes = encoder.encode(text)
  header.set(bytes.subarray(0, length), offset)
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`
}

/** One ustar header block. */
export function headerOf(entry: RawEntry, dataLength: number): Uint8Array {
  const header = new Uint8Array(BLOCK)
  put(header, 0, 100, entry.name)
  put(header, 100, 8, octal(entry.type === '5' ? 0o755 : 0o644, 8))
  put(header, 108, 8, octal(0, 8))
  put(header, 116, 8, octal(0, 8))
  put(header, 124, 12, octal(entry.size ?? dataLength, 12))
  put(header, 136, 12, octal(1_700_000_000, 12))
  put(header, 148, 8, '        ')
  put(header, 156, 1, entry.type ?? '0')
  put(header, 157, 100, entry.linkname ?? '')
  put(header, 257, 6, 'ustar\0')
  put(header, 263, 2, '00')
  put(header, 265, 32, 'mycelo')
  put(header, 297, 32, 'mycelo')
  put(header, 345, 155, entry.prefix ?? '')
  let sum = header.reduce((total, byte) => total + byte, 0)
  if (entry.badChecksum) sum += 1
  put(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `)
  return header
}

/** The entries as a tar stream, padded to blocks, with the two-block end marker unless `end` is false. */
export function tarOf(entries: readonly RawEntry[], options: { readonly end?: boolean } = {}): Uint8Array {
  const parts: Uint8Array[] = []
  for (const entry of entries) {
    const data = bytesOf(entry.data)
    parts.push(headerOf(entry, data.length), data)
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK
    parts.push(new Uint8Array(pad))
  }
  if (options.end !== false) parts.push(new Uint8Array(BLOCK * 2))
  return concat(parts)
}

/** A pax extended header record: `<length> <key>=<value>\n`, the length counting itself. */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`
  let length = encoder.encode(body).length + 1
  while (String(length).length + encoder.encode(body).length !== length) length++
  return `${length}${body}`
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0)
  const out = new Uint8Array(total)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

export const gzip = (bytes: Uint8Array): Uint8Array => Bun.gzipSync(bytes as Uint8Array<ArrayBuffer>)
