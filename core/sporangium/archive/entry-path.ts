// What an archive entry's name may be: a relative path that stays inside the folder it is unpacked
// in, written the same way on every system. Anything else refuses the whole archive.

/** Why a name is refused, as the key of its refusal; the entry's path goes in its params. */
export type PathProblem =
  | 'archive_path_absolute'
  | 'archive_path_parent'
  | 'archive_path_backslash'
  | 'archive_path_nul'
  | 'archive_path_unclean'

export type EntryPath =
  | { readonly ok: true; readonly segments: readonly string[] }
  | { readonly ok: false; readonly problem: PathProblem }

/** The longest name kept; a real spore's paths are far shorter. */
const MAX_PATH = 1024

/**
 * The name's segments, `.` segments and a directory's trailing slash dropped; a name that is
 * absolute (on any system), climbs out, or hides a NUL, a backslash or an empty segment, is
 * refused. `./` alone answers no segments: the folder the archive unpacks in.
 */
export function entryPath(name: string): EntryPath {
  if (name.includes('\0')) return { ok: false, problem: 'archive_path_nul' }
  // A backslash is a separator on Windows and a letter here: the two would unpack differently.
  if (name.includes('\\')) return { ok: false, problem: 'archive_path_backslash' }
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return { ok: false, problem: 'archive_path_absolute' }
  const raw = name.split('/')
  if (raw.includes('..')) return { ok: false, problem: 'archive_path_parent' }
  if (raw.at(-1) === '') raw.pop()
  const segments = raw.filter((segment) => segment !== '.')
  // Control characters have no place in a file name and make a refusal unreadable.
  const unclean =
    name.length > MAX_PATH ||
    segments.some((segment) => segment === '') ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    /[\u0000-\u001f\u007f]/.test(name)
  if (unclean) return { ok: false, problem: 'archive_path_unclean' }
  return { ok: true, segments }
}
