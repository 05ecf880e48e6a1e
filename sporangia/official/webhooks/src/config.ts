import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

const target = z.strictObject({
  channel: z.string().min(1).describe('The channel spore, such as signal'),
  conversationId: z.string().min(1).describe('The conversation on it, as /conversations lists it'),
})

const settings = z.strictObject({
  // A short secret can be guessed offline from one signed delivery.
  secret: z.string().min(16).describe('settings.secret'),
  targets: z.array(target).min(1).describe('settings.targets'),
  template: z.string().min(1).max(2000).default('{{text}}').describe('settings.template'),
})

export type WebhooksConfig = z.output<typeof settings>
export type Target = z.output<typeof target>

export const configSchema = defineConfig(settings, { secrets: ['secret'] })
