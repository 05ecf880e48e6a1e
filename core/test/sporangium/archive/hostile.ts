// The hostile corpus: archives an install must refuse before any byte of them leaves staging, each
// with the refusal it must meet. Most are written by hand (tar-bytes.ts) where node-tar would not
// make the shape; the rest are good archives damaged afterwards.
import { stringify } from 'yaml'
import { probeManifest } from '../install/ground.ts'
import {
  CORPUS_LIMITS,
  flipped,
  gigabyteBomb,
  good,
  type HostileArchive,
  MANIFEST,
  many,
  only,
  under,
  withManifest,
} from './corpus-parts.ts'
import { HOSTILE_NAMES } from './hostile-names.ts'
import { concat, gzip, tarOf } from './tar-bytes.ts'

export { CORPUS_LIMITS } from './corpus-parts.ts'

export const HOSTILE: readonly HostileArchive[] = [
  ...HOSTILE_NAMES,
  // Shapes that would overwrite or confuse what is unpacked.
  {
    name: 'spore.yaml twice',
    bytes: withManifest({ name: 'spore.yaml', data: probeManifest('other') }),
    refusal: 'archive_duplicate',
  },
  {
    name: 'a file and the same file spelt with ./',
    bytes: withManifest({ name: './spore.yaml', data: 'x' }),
    refusal: 'archive_duplicate',
  },
  {
    name: 'a folder twice',
    bytes: withManifest({ name: 'src/', type: '5' }, { name: 'src/', type: '5' }),
    refusal: 'archive_duplicate',
  },
  {
    name: 'a file and a folder of one name',
    bytes: withManifest({ name: 'src', data: 'x' }, { name: 'src/', type: '5' }),
    refusal: 'archive_duplicate',
  },
  {
    name: 'two names that differ only in case',
    bytes: withManifest({ name: 'src/Index.ts', data: 'x' }, { name: 'src/index.ts', data: 'y' }),
    refusal: 'archive_duplicate',
  },
  {
    name: 'two names that differ only in Unicode form',
    bytes: withManifest({ name: 'caf\u00e9.ts', data: 'x' }, { name: 'cafe\u0301.ts', data: 'y' }),
    refusal: 'archive_duplicate',
  },
  {
    name: 'a file where a folder is expected',
    bytes: withManifest({ name: 'src', data: 'x' }, { name: 'src/index.ts', data: 'x' }),
    refusal: 'archive_file_as_folder',
  },
  {
    name: 'a folder named spore.yaml',
    bytes: only({ name: 'spore.yaml/', type: '5' }, { name: 'spore.yaml/x', data: 'x' }),
    refusal: 'archive_manifest_not_file',
  },
  {
    name: 'a folder named spore.yaml under the top folder',
    bytes: only({ name: 'probe/', type: '5' }, { name: 'probe/spore.yaml/', type: '5' }),
    refusal: 'archive_manifest_not_file',
  },
  {
    name: 'two top-level folders',
    bytes: only(under('one', MANIFEST), under('two', MANIFEST)),
    refusal: 'archive_top_level',
  },
  {
    name: 'a top folder and a stray file',
    bytes: only(under('probe', MANIFEST), { name: 'README', data: 'x' }),
    refusal: 'archive_top_level',
  },
  {
    name: 'no spore.yaml',
    bytes: only({ name: 'src/index.ts', data: 'x' }),
    refusal: 'archive_manifest_missing',
  },
  {
    name: 'spore.yaml two folders down',
    bytes: only(under('a/b', MANIFEST)),
    refusal: 'archive_manifest_missing',
  },
  { name: 'an empty archive', bytes: only(), refusal: 'archive_tar_broken' },
  // Limits, counted while reading.
  {
    name: 'more files than the limit',
    bytes: withManifest(...many(CORPUS_LIMITS.entries, 'file')),
    refusal: 'archive_too_many_entries',
  },
  {
    name: 'more folders than the limit',
    bytes: withManifest(...many(CORPUS_LIMITS.entries, 'folder')),
    refusal: 'archive_too_many_entries',
  },
  {
    name: 'more bytes than the limit',
    bytes: withManifest({ name: 'big.bin', data: new Uint8Array(CORPUS_LIMITS.expandedBytes + 1) }),
    refusal: 'archive_too_large',
  },
  { name: 'a 1 GiB expansion (a gzip bomb)', bytes: gigabyteBomb, refusal: 'archive_too_large' },
  {
    name: 'zeros past the end marker',
    bytes: () => concat([good(), gzip(new Uint8Array(2 * CORPUS_LIMITS.expandedBytes))]),
    refusal: 'archive_too_large',
  },
  // Damaged gzip.
  {
    name: 'a gzip cut in half',
    bytes: () => good().subarray(0, Math.floor(good().length / 2)),
    refusal: 'archive_gzip_broken',
  },
  {
    name: 'a gzip without its trailer',
    bytes: () => good().subarray(0, good().length - 8),
    refusal: 'archive_gzip_broken',
  },
  { name: 'a gzip with a damaged body', bytes: () => flipped(good(), 40), refusal: 'archive_gzip_broken' },
  {
    name: 'a gzip with a wrong checksum',
    bytes: () => flipped(good(), good().length - 6),
    refusal: 'archive_gzip_broken',
  },
  {
    name: 'a gzip followed by garbage',
    bytes: () => concat([good(), new TextEncoder().encode('garbage!')]),
    refusal: 'archive_gzip_broken',
  },
  { name: 'a tar that is not gzipped', bytes: () => tarOf([MANIFEST]), refusal: 'archive_gzip_broken' },
  { name: 'no bytes at all', bytes: () => new Uint8Array(), refusal: 'archive_gzip_broken' },
  // Damaged tar inside a sound gzip.
  {
    name: 'a size that claims more than is there',
    bytes: withManifest({ name: 'src/index.ts', data: 'short', size: 4000 }),
    refusal: 'archive_tar_broken',
  },
  {
    name: 'a size that claims less than is there',
    bytes: withManifest({ name: 'src/index.ts', data: 'x'.repeat(2000), size: 10 }),
    refusal: 'archive_tar_broken',
  },
  {
    name: 'a header with a bad checksum',
    bytes: withManifest({ name: 'src/index.ts', data: 'x', badChecksum: true }),
    refusal: 'archive_tar_broken',
  },
  {
    name: 'a tar cut short',
    bytes: () => gzip(tarOf([MANIFEST, { name: 'a', data: 'x'.repeat(3000) }]).subarray(0, 2048)),
    refusal: 'archive_tar_broken',
  },
  {
    name: 'a tar without its end marker',
    bytes: () => gzip(tarOf([MANIFEST], { end: false })),
    refusal: 'archive_tar_broken',
  },
  {
    name: 'random bytes gzipped',
    bytes: () => gzip(crypto.getRandomValues(new Uint8Array(4096))),
    refusal: 'archive_tar_broken',
  },
  { name: 'an archive inside the archive', bytes: () => gzip(good()), refusal: 'archive_tar_broken' },
  // The manifest, read in staging.
  {
    name: 'a manifest that is not YAML',
    bytes: only({ name: 'spore.yaml', data: 'kind: [enzyme\n' }),
    refusal: 'archive_manifest_refused',
  },
  {
    name: 'a manifest the schema refuses',
    bytes: only({ name: 'spore.yaml', data: stringify({ kind: 'virus', name: 'probe', septum: '^1.0' }) }),
    refusal: 'archive_manifest_refused',
  },
  {
    name: 'a manifest past the size cap',
    bytes: only({ name: 'spore.yaml', data: `${probeManifest()}# ${'x'.repeat(70 * 1024)}\n` }),
    refusal: 'archive_manifest_refused',
  },
  {
    name: 'a manifest that is an alias bomb',
    bytes: only({ name: 'spore.yaml', data: aliasBomb() }),
    refusal: 'archive_manifest_refused',
  },
  {
    name: 'a manifest naming another spore',
    bytes: only({ name: 'spore.yaml', data: probeManifest('other') }),
    refusal: 'archive_manifest_name',
  },
  {
    name: 'a manifest naming another spore, under a folder of the right name',
    bytes: only(under('probe', { name: 'spore.yaml', data: probeManifest('other') })),
    refusal: 'archive_manifest_name',
  },
  {
    name: 'a septum range that excludes 1.0',
    bytes: only({ name: 'spore.yaml', data: probeManifest('probe', { septum: '^2.0' }) }),
    refusal: 'archive_septum_excluded',
  },
  {
    name: 'a septum range of an older major only',
    bytes: only({ name: 'spore.yaml', data: probeManifest('probe', { septum: '^0.9' }) }),
    refusal: 'archive_septum_excluded',
  },
  // The name asked for.
  {
    name: 'a reserved name',
    spore: 'core',
    bytes: only({ name: 'spore.yaml', data: probeManifest('core') }),
    refusal: 'spore_name_reserved',
  },
  {
    name: 'the common domain as a name',
    spore: 'common',
    bytes: only({ name: 'spore.yaml', data: probeManifest('common') }),
    refusal: 'spore_name_reserved',
  },
  { name: 'a name that is a path', spore: '../spores', bytes: good, refusal: 'spore_name_invalid' },
  {
    name: 'a collision with a shipped spore',
    spore: 'help',
    bytes: only({ name: 'spore.yaml', data: probeManifest('help') }),
    refusal: 'spore_collision',
  },
]

/** Nested anchors: a few hundred bytes that would expand past memory without yaml's alias cap. */
function aliasBomb(): string {
  const lines = ['kind: enzyme', 'name: probe', 'septum: "^1.0"', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
  for (let level = 1; level < 12; level++) {
    const previous = `*a${level - 1}`
    lines.push(`a${level}: &a${level} [${Array.from({ length: 10 }, () => previous).join(', ')}]`)
  }
  lines.push('commands: []')
  return `${lines.join('\n')}\n`
}
