// The parts of Radarr's v3 resources this rhiza reads. Loose objects: Radarr sends far more, and a
// newer Radarr adding fields must not break the bot.
import { z } from 'zod'

const date = z.string().min(1).optional()

export const movieSchema = z.looseObject({
  id: z.number().int().optional(),
  title: z.string(),
  year: z.number().int().optional(),
  tmdbId: z.number().int(),
  imdbId: z.string().optional(),
  overview: z.string().optional(),
  status: z.string().optional(),
  monitored: z.boolean().optional(),
  hasFile: z.boolean().optional(),
  inCinemas: date,
  digitalRelease: date,
  physicalRelease: date,
})

export type RadarrMovieResource = z.output<typeof movieSchema>

export const systemStatusSchema = z.looseObject({
  appName: z.string().optional(),
  version: z.string(),
})

export const queueSchema = z.looseObject({
  totalRecords: z.number().int(),
  records: z.array(
    z.looseObject({
      movieId: z.number().int().optional(),
      title: z.string(),
      status: z.string(),
      size: z.number().optional(),
      sizeleft: z.number().optional(),
      estimatedCompletionTime: date,
      movie: movieSchema.optional(),
    }),
  ),
})

export const qualityProfilesSchema = z.array(z.looseObject({ id: z.number().int(), name: z.string() }))
export const rootFoldersSchema = z.array(z.looseObject({ id: z.number().int(), path: z.string() }))

/** A failed validation, as Radarr answers a refused POST. */
export const validationSchema = z.array(
  z.looseObject({
    propertyName: z.string().optional(),
    errorMessage: z.string(),
    errorCode: z.string().optional(),
  }),
)
