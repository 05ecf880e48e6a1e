import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  interactive: z.enum(['auto', 'always', 'never']).default('auto').describe('settings.interactive'),
  userId: z.string().min(1).default('owner').describe('settings.userId'),
  displayName: z.string().min(1).optional().describe('settings.displayName'),
})

export type ConsoleConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings)
