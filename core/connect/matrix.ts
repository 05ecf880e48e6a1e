// Matrix: the access token is checked with whoami on the homeserver (given on the command line, or
// already stored), within a deadline, before anything is stored; a refused token, an unreachable
// homeserver and an address that is not one are told apart.
import type { OutcomeOf } from '@mycelo/septum'
import { refused } from '../mycelium/outcome.ts'
import type { Connected, Connector } from './connector.ts'

export const matrixConnector: Connector = {
  spore: 'matrix',
  asksSecret: true,
  async check(input, { deadlineMs }): Promise<OutcomeOf<Connected>> {
    const homeserver =
      input.args[0] ?? (typeof input.stored.homeserverUrl === 'string' ? input.stored.homeserverUrl : '')
    if (!URL.canParse(homeserver) || !/^https?:$/.test(new URL(homeserver).protocol))
      return refused('connect_matrix_homeserver', { given: homeserver })
    const token = input.secret?.trim() ?? ''
    if (token === '') return refused('connect_secret_missing', { channel: 'matrix' })
    const url = `${homeserver.replace(/\/+$/, '')}/_matrix/client/v3/account/whoami`
    let response: Response
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(deadlineMs),
        redirect: 'error',
      })
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError'
      return refused(timedOut ? 'connect_matrix_timeout' : 'connect_matrix_unreachable', {
        url,
        seconds: deadlineMs / 1000,
        reason: (error as Error).message,
      })
    }
    if (response.status === 401) return refused('connect_matrix_token', { homeserver })
    const me = (await response.json().catch(() => ({}))) as { user_id?: unknown }
    if (!response.ok || typeof me.user_id !== 'string')
      return refused('connect_matrix_status', { url, status: response.status })
    return {
      ok: true,
      value: { who: me.user_id, settings: { homeserverUrl: homeserver, accessToken: token } },
    }
  },
}
