import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  results: z.number().int().min(1).max(20).default(5).describe('settings.results'),
  days: z.number().int().min(1).max(90).default(7).describe('settings.days'),
})

export type MoviesConfig = z.output<typeof settings>

/** The longest window /upcoming accepts, whatever the setting. */
export const MAX_DAYS = 90

export const configSchema = defineConfig(settings)
