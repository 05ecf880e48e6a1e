import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const target = z.strictObject({
  channel: z.string().min(1).describe('The channel spore, such as signal'),
  conversationId: z.string().min(1).describe('The conversation on it, as /conversations lists it'),
})

const settings = z.strictObject({
  // A short secret can be guessed offline from one signed delivery.
  secret: z.string().min(16).describe('The shared secret senders sign with (at least 16 characters)'),
  targets: z.array(target).min(1).describe('Where every relayed message is sent'),
  template: z
    .string()
    .min(1)
    .max(2000)
    .default('{{text}}')
    .describe('How /generic renders its JSON: {{field}} or {{nested.field}} is replaced by its value'),
})

export type WebhooksConfig = z.output<typeof settings>
export type Target = z.output<typeof target>

export const configSchema = defineConfig(settings, { secrets: ['secret'] })
