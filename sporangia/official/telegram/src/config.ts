import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

/** BotFather's tokens: the bot's numeric id, a colon, then at least 30 letters, digits, - or _. */
const TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{30,}$/

/** What Telegram accepts as a webhook secret token. */
const SECRET = /^[A-Za-z0-9_-]{1,256}$/

/** The ports Telegram's own servers deliver webhooks to. */
const WEBHOOK_PORTS = new Set(['', '443', '80', '88', '8443'])

// Each field's .describe() names settings.<field> in the catalogues: its label and help, en and fr.
const settings = z.strictObject({
  token: z.string().min(1).describe('settings.token'),
  webhookUrl: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('settings.webhookUrl'),
  webhookSecret: z.string().optional().describe('settings.webhookSecret'),
  apiRoot: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('settings.apiRoot'),
  maxFileMegabytes: z.number().int().min(1).max(2000).default(20).describe('settings.maxFileMegabytes'),
})

type Settings = z.output<typeof settings>

/** Where Telegram should post updates, or undefined when the bot polls. */
export function webhookEndpoint(config: Pick<Settings, 'webhookUrl'>): string | undefined {
  if (config.webhookUrl === undefined) return undefined
  return `${config.webhookUrl.replace(/\/+$/, '')}/spores/telegram/update`
}

// Each refusal's message is a catalogue key of this spore, so the operator reads it in their language.
function checkSettings(value: Settings, issue: (path: string, key: string) => void): void {
  if (!TOKEN.test(value.token)) issue('token', 'config.token.shape')
  if (value.webhookSecret !== undefined && !SECRET.test(value.webhookSecret))
    issue('webhookSecret', 'config.webhook_secret.shape')
  if (value.webhookSecret !== undefined && value.webhookUrl === undefined)
    issue('webhookSecret', 'config.webhook_secret.without_url')
  if (value.webhookUrl === undefined) return
  const url = new URL(value.webhookUrl)
  if (url.search !== '' || url.hash !== '') issue('webhookUrl', 'config.webhook_url.query')
  // Telegram's own servers post over https to four ports only; a self-hosted Bot API server does not care.
  if (value.apiRoot !== undefined) return
  if (url.protocol !== 'https:') issue('webhookUrl', 'config.webhook_url.https')
  else if (!WEBHOOK_PORTS.has(url.port)) issue('webhookUrl', 'config.webhook_url.port')
}

const checked = settings.superRefine((value, ctx) => {
  checkSettings(value, (path, message) => ctx.addIssue({ code: 'custom', path: [path], message }))
})

export type TelegramConfig = z.output<typeof checked>

export const configSchema = defineConfig(checked, { secrets: ['token', 'webhookSecret'] })
