import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).describe('settings.url'),
  apiKey: z.string().min(1).describe('settings.apiKey'),
  timeoutSeconds: z.number().int().min(1).max(60).default(10).describe('settings.timeoutSeconds'),
  qualityProfileId: z.number().int().positive().optional().describe('settings.qualityProfileId'),
  rootFolderPath: z.string().min(1).optional().describe('settings.rootFolderPath'),
  minimumAvailability: z
    .enum(['announced', 'inCinemas', 'released'])
    .default('released')
    .describe('settings.minimumAvailability'),
  searchOnAdd: z.boolean().default(true).describe('settings.searchOnAdd'),
})

export type RadarrConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings, { secrets: ['apiKey'] })
