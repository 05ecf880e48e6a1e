import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
import { knownTimeZone } from './when.ts'

const settings = z.strictObject({
  timeZone: z
    .string()
    .default('UTC')
    .refine((zone) => knownTimeZone(zone) !== undefined, 'settings.timeZone.unknown')
    .describe('The time zone of a reader who has not chosen one with /timezone (IANA, such as Europe/Paris)'),
  maxPerPerson: z
    .number()
    .int()
    .min(1)
    .max(200)
    .default(25)
    .describe('How many reminders one person may keep'),
})

export type RemindersConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings)
