import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const snowflake = z.string().regex(/^\d{17,20}$/)

const settings = z.object({
  token: z
    .string()
    .min(1)
    .describe('The bot token: Discord Developer Portal → your application → Bot → Reset Token'),
  guilds: z
    .array(snowflake)
    .optional()
    .describe('Ids of the servers to serve; leave empty to serve every server the bot is in'),
  apiBaseUrl: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('Where the Discord REST API lives; leave empty for Discord itself (https://discord.com/api)'),
})

export type DiscordConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings, { secrets: ['token'] })
