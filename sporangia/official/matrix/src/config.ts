import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

/** A Matrix user id: @localpart:server. */
const USER_ID = /^@[^:\s]+:[^\s]+$/

const settings = z.strictObject({
  homeserverUrl: z
    .url({ protocol: /^https?$/ })
    .describe(
      'Where the bot account’s homeserver answers the client API, such as https://matrix.example.org',
    ),
  accessToken: z
    .string()
    .min(1)
    .describe(
      'The bot account’s access token (Element: Settings → Help & About → Access Token, in a session kept ' +
        'for the bot; never log that session out, or the token dies with it)',
    ),
  acceptInvites: z
    .enum(['all', 'none', 'listed'])
    .default('none')
    .describe(
      'Which room invitations the bot accepts: from anyone, from nobody (the default: it stays in the rooms it is in), or from the users listed in inviters',
    ),
  inviters: z
    .array(z.string())
    .default([])
    .describe('With acceptInvites: listed, the users whose invitations are accepted (@alice:example.org)'),
  maxFileMegabytes: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(20)
    .describe('The largest image or file fetched from a message, in MB'),
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
