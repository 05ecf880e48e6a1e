import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  groups: z
    .record(z.string().regex(/^[a-z0-9-]+$/), z.array(z.string().min(1)).min(1))
    .refine((groups) => Object.keys(groups).length > 0, 'settings.groups.empty')
    .describe('settings.groups'),
  // Asking a channel for a group's members is a network call: answers are kept this long.
  cacheSeconds: z.number().int().min(0).max(3600).default(60).describe('settings.cacheSeconds'),
})

export type GroupGateConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings)
