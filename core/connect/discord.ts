// Discord: the token is checked with GET /users/@me (what the bot's own login asks first), within a
// deadline, before it is stored; a refused token and an unreachable Discord are told apart.
import type { OutcomeOf } from '@mycelo/septum'
import { refused } from '../mycelium/outcome.ts'
import type { Connected, Connector } from './connector.ts'

const DISCORD_API = 'https://discord.com/api'

export const discordConnector: Connector = {
  spore: 'discord',
  asksSecret: true,
  async check(input, { deadlineMs }): Promise<OutcomeOf<Connected>> {
    const token = input.secret?.trim() ?? ''
    if (token === '') return refused('connect_secret_missing', { channel: 'discord' })
    const base = typeof input.stored.apiBaseUrl === 'string' ? input.stored.apiBaseUrl : DISCORD_API
    const url = `${base.replace(/\/$/, '')}/v10/users/@me`
    let response: Response
    try {
      response = await fetch(url, {
        headers: { authorization: `Bot ${token}` },
        signal: AbortSignal.timeout(deadlineMs),
        redirect: 'error',
      })
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError'
      return refused(timedOut ? 'connect_discord_timeout' : 'connect_discord_unreachable', {
        url,
        seconds: deadlineMs / 1000,
        reason: (error as Error).message,
      })
    }
    if (response.status === 401) return refused('connect_discord_token', {})
    if (!response.ok) return refused('connect_discord_status', { url, status: response.status })
    const me = (await response.json().catch(() => ({}))) as { username?: unknown; bot?: unknown }
    if (typeof me.username !== 'string')
      return refused('connect_discord_status', { url, status: response.status })
    return { ok: true, value: { who: me.username, settings: { token } } }
  },
}
