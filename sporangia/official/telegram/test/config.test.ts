// The settings an operator types, refused with a reason they can act on, in their language.
import { describe, expect, it } from 'bun:test'
import type { ConfigIssue } from '@mycelo/septum'
import { configSchema, webhookEndpoint } from '../src/config.ts'

const TOKEN = '123456789:AAE_abcdefghijklmnopqrstuvwxyz012345'

function issues(settings: Record<string, unknown>): { path: string; key: unknown }[] {
  const parsed = configSchema.safeParse(settings)
  if (parsed.success) return []
  return parsed.error.issues.map((issue: ConfigIssue) => ({
    path: issue.path.join('.'),
    key: issue.messageKey,
  }))
}

describe('telegram settings', () => {
  it('take a token alone (polling) and default the file size to Telegram’s 20 MB', () => {
    const parsed = configSchema.safeParse({ token: TOKEN })
    expect(parsed.success && parsed.data).toEqual({ token: TOKEN, maxFileMegabytes: 20 })
  })

  it('refuse a token that is not BotFather’s shape', () => {
    expect(issues({ token: 'my-password' })).toEqual([{ path: 'token', key: 'config.token.shape' }])
  })

  it('want a webhook over https on a port Telegram delivers to', () => {
    expect(issues({ token: TOKEN, webhookUrl: 'http://bot.example.org' })).toEqual([
      { path: 'webhookUrl', key: 'config.webhook_url.https' },
    ])
    expect(issues({ token: TOKEN, webhookUrl: 'https://bot.example.org:8080' })).toEqual([
      { path: 'webhookUrl', key: 'config.webhook_url.port' },
    ])
    expect(issues({ token: TOKEN, webhookUrl: 'https://bot.example.org:8443/mycelo' })).toEqual([])
    expect(issues({ token: TOKEN, webhookUrl: 'https://bot.example.org/?a=1' })).toEqual([
      { path: 'webhookUrl', key: 'config.webhook_url.query' },
    ])
  })

  it('let a self-hosted Bot API server post to http and any port', () => {
    expect(
      issues({ token: TOKEN, apiRoot: 'http://127.0.0.1:8081', webhookUrl: 'http://127.0.0.1:3000' }),
    ).toEqual([])
  })

  it('refuse a webhook secret Telegram would refuse, or one with no webhook to use it', () => {
    expect(
      issues({ token: TOKEN, webhookUrl: 'https://bot.example.org', webhookSecret: 'has spaces' }),
    ).toEqual([{ path: 'webhookSecret', key: 'config.webhook_secret.shape' }])
    expect(issues({ token: TOKEN, webhookSecret: 'abc' })).toEqual([
      { path: 'webhookSecret', key: 'config.webhook_secret.without_url' },
    ])
  })

  it('refuse an unknown key, naming it', () => {
    expect(issues({ token: TOKEN, chatId: 5 })[0]?.path).toBe('')
  })

  it('keep the token and the webhook secret secret', () => {
    expect([...configSchema.secrets].sort()).toEqual(['token', 'webhookSecret'])
  })

  it('put the route under the address the operator gave, with or without a trailing slash', () => {
    expect(webhookEndpoint({ webhookUrl: 'https://bot.example.org/mycelo/' })).toBe(
      'https://bot.example.org/mycelo/spores/telegram/update',
    )
    expect(webhookEndpoint({})).toBeUndefined()
  })
})
