import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  // Spores are not told the core's prefix, so the listing's is a setting of its own.
  prefix: z
    .string()
    .regex(/^\S+$/)
    .default('/')
    .describe('The prefix shown before each command; keep it equal to the prefix in mycelo.yaml'),
})

export type HelpConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings)
