import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
import { knownTimeZone } from './when.ts'

const settings = z.strictObject({
  timeZone: z
    .string()
    .default('UTC')
    .refine((zone) => knownTimeZone(zone) !== undefined, 'settings.timeZone.unknown')
    .describe('settings.timeZone'),
  maxPerPerson: z.number().int().min(1).max(200).default(25).describe('settings.maxPerPerson'),
})

export type RemindersConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings)
