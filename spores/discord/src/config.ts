import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const snowflake = z.string().regex(/^\d{17,20}$/)

const settings = z.object({
  token: z.string().min(1).describe('settings.token'),
  guilds: z.array(snowflake).optional().describe('settings.guilds'),
  apiBaseUrl: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('settings.apiBaseUrl'),
})

export type DiscordConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings, { secrets: ['token'] })
