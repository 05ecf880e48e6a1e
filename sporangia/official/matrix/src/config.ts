import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

/** A Matrix user id: @localpart:server. */
const USER_ID = /^@[^:\s]+:[^\s]+$/

// Each field's .describe() names settings.<field> in the catalogues: its label and help, en and fr.
const settings = z.strictObject({
  homeserverUrl: z.url({ protocol: /^https?$/ }).describe('settings.homeserverUrl'),
  accessToken: z.string().min(1).describe('settings.accessToken'),
  acceptInvites: z.enum(['all', 'none', 'listed']).default('none').describe('settings.acceptInvites'),
  inviters: z.array(z.string()).default([]).describe('settings.inviters'),
  maxFileMegabytes: z.number().int().min(1).max(1000).default(20).describe('settings.maxFileMegabytes'),
})

type Settings = z.output<typeof settings>

// Each refusal's message is a catalogue key of this spore, so the operator reads it in their language.
function checkSettings(value: Settings, issue: (path: (string | number)[], key: string) => void): void {
  for (const [index, user] of value.inviters.entries()) {
    if (!USER_ID.test(user)) issue(['inviters', index], 'config.inviters.shape')
  }
  if (value.acceptInvites === 'listed' && value.inviters.length === 0)
    issue(['inviters'], 'config.inviters.empty')
}

const checked = settings.superRefine((value, ctx) => {
  checkSettings(value, (path, message) => ctx.addIssue({ code: 'custom', path, message }))
})

export type MatrixConfig = z.output<typeof checked>

export const configSchema = defineConfig(checked, { secrets: ['accessToken'] })
