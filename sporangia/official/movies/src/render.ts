import type { Translate } from '@mycelo/septum'
import type { Movie } from '../../radarr/src/index.ts'

/** "Title (1999)", or the title alone when Radarr knows no year. */
export function label(movie: Movie, t: Translate): string {
  return movie.year === undefined ? movie.title : t('movie.label', { title: movie.title, year: movie.year })
}

export type ReleaseKind = 'cinemas' | 'digital' | 'physical'

export interface Release {
  readonly movie: Movie
  readonly kind: ReleaseKind
  readonly at: Date
}

/** Every release of these movies inside [start, end], soonest first. */
export function releasesWithin(movies: readonly Movie[], start: Date, end: Date): Release[] {
  const releases: Release[] = []
  for (const movie of movies) {
    for (const kind of ['cinemas', 'digital', 'physical'] as const) {
      const when = movie.releases[kind]
      if (when === undefined) continue
      const at = new Date(when)
      if (at >= start && at <= end) releases.push({ movie, kind, at })
    }
  }
  return releases.sort(
    (a, b) => a.at.getTime() - b.at.getTime() || a.movie.title.localeCompare(b.movie.title),
  )
}

/**
 * A release day in the reader's language. Radarr's release dates are calendar days sent as UTC
 * midnight, so they are shown in UTC: in the reader's own zone they could fall on the day before.
 */
export function releaseDay(at: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(at)
}

/** The command as the reader typed it (`/movie`, `!movies.movie`), for usage lines and hints. */
export function typedCommand(text: string, fallback: string): string {
  return text.trimStart().split(/\s/, 1)[0] || fallback
}
