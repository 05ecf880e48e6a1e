// The hostile corpus, first half: names that leave the folder, records that rename an entry,
// and entries that are neither files nor folders.
import { type HostileArchive, longName, only, pax, withManifest } from './corpus-parts.ts'
import { paxRecord } from './tar-bytes.ts'

export const HOSTILE_NAMES: readonly HostileArchive[] = [
  // Names that leave the folder or cannot be written the same everywhere.
  {
    name: 'an absolute path',
    bytes: withManifest({ name: '/etc/cron.d/evil', data: 'x' }),
    refusal: 'archive_path_absolute',
  },
  {
    name: 'an absolute folder',
    bytes: withManifest({ name: '/tmp/', type: '5' }),
    refusal: 'archive_path_absolute',
  },
  {
    name: 'an absolute ustar prefix',
    bytes: withManifest({ name: 'evil', prefix: '/etc', data: 'x' }),
    refusal: 'archive_path_absolute',
  },
  {
    name: 'a Windows drive path',
    bytes: withManifest({ name: 'C:/evil', data: 'x' }),
    refusal: 'archive_path_absolute',
  },
  {
    name: 'a leading ..',
    bytes: withManifest({ name: '../evil', data: 'x' }),
    refusal: 'archive_path_parent',
  },
  {
    name: 'a .. deep inside',
    bytes: withManifest({ name: 'src/../../evil', data: 'x' }),
    refusal: 'archive_path_parent',
  },
  {
    name: 'a trailing ..',
    bytes: withManifest({ name: 'src/..', type: '5' }),
    refusal: 'archive_path_parent',
  },
  {
    name: 'a .. in the ustar prefix',
    bytes: withManifest({ name: 'evil', prefix: '../..', data: 'x' }),
    refusal: 'archive_path_parent',
  },
  {
    name: 'a backslash climbing out',
    bytes: withManifest({ name: '..\\evil', data: 'x' }),
    refusal: 'archive_path_backslash',
  },
  {
    name: 'a backslash as a separator',
    bytes: withManifest({ name: 'src\\index.ts', data: 'x' }),
    refusal: 'archive_path_backslash',
  },
  {
    name: 'a NUL in a pax path',
    bytes: withManifest(pax(paxRecord('path', 'ok\0../../evil')), { name: 'ok', data: 'x' }),
    refusal: 'archive_path_nul',
  },
  {
    name: 'a NUL in a GNU long name',
    bytes: withManifest(longName('ok\0/etc/evil'), { name: 'ok', data: 'x' }),
    refusal: 'archive_path_nul',
  },
  {
    name: 'a control character',
    bytes: withManifest({ name: 'src/\u001b[2Jevil', data: 'x' }),
    refusal: 'archive_path_unclean',
  },
  {
    name: 'an empty path segment',
    bytes: withManifest({ name: 'src//index.ts', data: 'x' }),
    refusal: 'archive_path_unclean',
  },
  // pax and GNU records that rename the entry after them.
  {
    name: 'a pax path that is absolute',
    bytes: withManifest(pax(paxRecord('path', '/etc/passwd')), { name: 'ok', data: 'x' }),
    refusal: 'archive_path_absolute',
  },
  {
    name: 'a pax path that climbs out',
    bytes: withManifest(pax(paxRecord('path', 'src/../../../evil')), { name: 'ok', data: 'x' }),
    refusal: 'archive_path_parent',
  },
  {
    name: 'a pax path with a backslash',
    bytes: withManifest(pax(paxRecord('path', '..\\..\\evil')), { name: 'ok', data: 'x' }),
    refusal: 'archive_path_backslash',
  },
  {
    name: 'a pax size that claims more than is there',
    bytes: withManifest(pax(paxRecord('size', '4000')), { name: 'ok', data: 'x' }),
    refusal: 'archive_tar_broken',
  },
  {
    name: 'a pax linkpath on a symlink',
    bytes: withManifest(pax(paxRecord('linkpath', '/etc/shadow')), { name: 'ok', type: '2', linkname: 'x' }),
    refusal: 'archive_symlink',
  },
  {
    name: 'a GNU long name that resolves outside',
    bytes: withManifest(longName(`${'a/'.repeat(60)}${'../'.repeat(70)}evil`), { name: 'ok', data: 'x' }),
    refusal: 'archive_path_parent',
  },
  {
    name: 'a GNU long name that is absolute',
    bytes: withManifest(longName(`/${'x'.repeat(200)}`), { name: 'ok', data: 'x' }),
    refusal: 'archive_path_absolute',
  },
  {
    name: 'a long name past any real spore',
    bytes: withManifest(longName('a'.repeat(2000)), { name: 'ok', data: 'x' }),
    refusal: 'archive_path_unclean',
  },
  // Entries that are neither files nor folders.
  {
    name: 'a symlink out of the folder',
    bytes: withManifest({ name: 'escape', type: '2', linkname: '/etc' }),
    refusal: 'archive_symlink',
  },
  {
    name: 'a symlink inside the folder',
    bytes: withManifest({ name: 'alias.yaml', type: '2', linkname: 'spore.yaml' }),
    refusal: 'archive_symlink',
  },
  {
    name: 'spore.yaml as a symlink',
    bytes: only({ name: 'spore.yaml', type: '2', linkname: '/etc/passwd' }),
    refusal: 'archive_symlink',
  },
  {
    name: 'a hard link',
    bytes: withManifest({ name: 'copy.yaml', type: '1', linkname: 'spore.yaml' }),
    refusal: 'archive_hardlink',
  },
  {
    name: 'a hard link out of the folder',
    bytes: withManifest({ name: 'shadow', type: '1', linkname: '/etc/shadow' }),
    refusal: 'archive_hardlink',
  },
  { name: 'a character device', bytes: withManifest({ name: 'null', type: '3' }), refusal: 'archive_device' },
  { name: 'a block device', bytes: withManifest({ name: 'sda', type: '4' }), refusal: 'archive_device' },
  { name: 'a FIFO', bytes: withManifest({ name: 'pipe', type: '6' }), refusal: 'archive_fifo' },
  {
    name: 'a contiguous file',
    bytes: withManifest({ name: 'c', type: '7', data: 'x' }),
    refusal: 'archive_entry_unsupported',
  },
  {
    name: 'an unknown entry type',
    bytes: withManifest({ name: 'z', type: 'Z', data: 'x' }),
    refusal: 'archive_entry_unsupported',
  },
  {
    name: 'a GNU dump folder',
    bytes: withManifest({ name: 'dump', type: 'D' }),
    refusal: 'archive_entry_unsupported',
  },
  {
    name: 'a tape volume header',
    bytes: withManifest({ name: 'volume', type: 'V' }),
    refusal: 'archive_entry_unsupported',
  },
]
