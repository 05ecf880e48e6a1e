// Telegram: the token is checked with getMe (what the bot asks first when it starts), within a
// deadline, before it is stored; a refused token and an unreachable Telegram are told apart.
import type { OutcomeOf } from '@mycelo/septum'
import { refused } from '../mycelium/outcome.ts'
import type { Connected, Connector } from './connector.ts'

const TELEGRAM_API = 'https://api.telegram.org'

export const telegramConnector: Connector = {
  spore: 'telegram',
  asksSecret: true,
  async check(input, { deadlineMs }): Promise<OutcomeOf<Connected>> {
    const token = input.secret?.trim() ?? ''
    if (token === '') return refused('connect_secret_missing', { channel: 'telegram' })
    const root = typeof input.stored.apiRoot === 'string' ? input.stored.apiRoot : TELEGRAM_API
    const base = root.replace(/\/+$/, '')
    // The token sits in the URL: never said back in a refusal.
    const said = `${base}/bot…/getMe`
    let response: Response
    try {
      response = await fetch(`${base}/bot${token}/getMe`, {
        signal: AbortSignal.timeout(deadlineMs),
        redirect: 'error',
      })
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError'
      return refused(timedOut ? 'connect_telegram_timeout' : 'connect_telegram_unreachable', {
        url: said,
        seconds: deadlineMs / 1000,
        reason: (error as Error).message.replaceAll(token, '…'),
      })
    }
    // 401 for a token Telegram does not know, 404 for one whose shape it does not even route.
    if (response.status === 401 || response.status === 404) return refused('connect_telegram_token', {})
    const me = (await response.json().catch(() => ({}))) as { ok?: unknown; result?: { username?: unknown } }
    if (!response.ok || me.ok !== true || typeof me.result?.username !== 'string')
      return refused('connect_telegram_status', { url: said, status: response.status })
    return { ok: true, value: { who: `@${me.result.username}`, settings: { token } } }
  },
}
