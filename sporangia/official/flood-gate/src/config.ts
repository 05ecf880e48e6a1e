import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  messages: z.number().int().min(1).max(1000).default(10).describe('settings.messages'),
  windowSeconds: z.number().int().min(1).max(86_400).default(60).describe('settings.windowSeconds'),
  exempt: z
    .array(z.string().regex(/^[a-z0-9-]+:.+$/, 'settings.exempt.format'))
    .default([])
    .describe('settings.exempt'),
  tellSender: z.boolean().default(true).describe('settings.tellSender'),
})

export type FloodGateConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings)
