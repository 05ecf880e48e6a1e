import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  // Spores are not told the core's prefix, so the listing's is a setting of its own.
  prefix: z.string().regex(/^\S+$/).default('/').describe('settings.prefix'),
})

export type HelpConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings)
