// What the hostile corpus is made of: its shape, its limits, and the small builders its archives
// are written with.
import { probeManifest } from '../install/ground.ts'
import { concat, gzip, type RawEntry, tarOf } from './tar-bytes.ts'

export interface HostileArchive {
  readonly name: string
  /** The spore asked for; `probe` unless given. */
  readonly spore?: string
  readonly bytes: () => Uint8Array
  /** The refusal key it must meet, without `refusal.`. */
  readonly refusal: string
}

/** The limits the corpus runs under: small, so the limit cases stay small too. */
export const CORPUS_LIMITS = { expandedBytes: 1024 * 1024, entries: 40 }

export const MANIFEST: RawEntry = { name: 'spore.yaml', data: probeManifest() }
export const under = (top: string, entry: RawEntry): RawEntry => ({ ...entry, name: `${top}/${entry.name}` })

/** spore.yaml at the root, then the entries. */
export const withManifest =
  (...entries: RawEntry[]) =>
  () =>
    gzip(tarOf([MANIFEST, ...entries]))
/** The entries alone. */
export const only =
  (...entries: RawEntry[]) =>
  () =>
    gzip(tarOf(entries))

export const good = () =>
  gzip(tarOf([MANIFEST, { name: 'src/index.ts', data: 'export default {}\n'.repeat(50) }]))

/** A gzip member per MiB of zeros after a header that claims a 1 GiB file: 1 GiB from about 1 MB. */
export function gigabyteBomb(): Uint8Array {
  const header = tarOf([{ name: 'big.bin', size: 1024 ** 3, data: '' }], { end: false }).subarray(0, 512)
  const zeros = gzip(new Uint8Array(1024 * 1024))
  return concat([gzip(header), ...Array.from({ length: 1024 }, () => zeros)])
}

export const flipped = (bytes: Uint8Array, at: number) => {
  const copy = bytes.slice()
  copy[at] = copy[at]! ^ 0xff
  return copy
}

export const longName = (path: string): RawEntry => ({ name: '././@LongLink', type: 'L', data: `${path}\0` })
export const pax = (...records: string[]): RawEntry => ({
  name: 'PaxHeader/x',
  type: 'x',
  data: records.join(''),
})
export const many = (count: number, kind: 'file' | 'folder') =>
  Array.from(
    { length: count },
    (_, at): RawEntry =>
      kind === 'file' ? { name: `f${at}.txt`, data: 'x' } : { name: `d${at}/`, type: '5' },
  )
