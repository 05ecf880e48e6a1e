import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const settings = z.strictObject({
  messages: z.number().int().min(1).max(1000).default(10).describe('Messages a sender may send per window'),
  windowSeconds: z.number().int().min(1).max(86_400).default(60).describe('The window, in seconds'),
  exempt: z
    .array(z.string().regex(/^[a-z0-9-]+:.+$/, 'settings.exempt.format'))
    .default([])
    .describe('Senders never limited, as channel:externalId (such as signal:+15550001111)'),
  tellSender: z
    .boolean()
    .default(true)
    .describe('Send a quiet "slow down" in a direct conversation, once per window; groups are never told'),
})

export type FloodGateConfig = z.output<typeof settings>

export const configSchema = defineConfig(settings)
