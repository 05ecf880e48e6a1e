import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).describe('Where Radarr answers, such as http://127.0.0.1:7878'),
  apiKey: z.string().min(1).describe('Radarr → Settings → General → API Key'),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(60)
    .default(10)
    .describe('How long one call to Radarr may take before it counts as a failure'),
  qualityProfileId: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The quality profile new movies get; Radarr’s first one when unset'),
  rootFolderPath: z
    .string()
    .min(1)
    .optional()
    .describe('The root folder new movies go to; Radarr’s first one when unset'),
  minimumAvailability: z
    .enum(['announced', 'inCinemas', 'released'])
    .default('released')
    .describe('When Radarr may start looking for a new movie'),
  searchOnAdd: z.boolean().default(true).describe('Search for a movie as soon as it is added'),
})

export type RadarrConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings, { secrets: ['apiKey'] })
