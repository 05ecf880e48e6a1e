import type { WebLogin } from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import { listeningUrl } from '../http/address.ts'
import { loginTickets } from '../http/tickets.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { currentActor } from './actor.ts'
import { refused } from './outcome.ts'

/**
 * web.login: a one-time code for the admin page, for the person whose command is being served and
 * no one else, so the session it opens holds exactly that person's roles.
 */
export function webLogin(runtime: CoreRuntime): WebLogin {
  return audited(runtime, 'web.login', {
    async loginCode() {
      const actor = currentActor()
      // Only a person asking in chat: not a timer, not an agent acting for them.
      if (actor?.kind !== 'principal') return refused('web_login_no_person')
      const { http } = runtime.config
      if (!http.enabled) return refused('web_disabled')
      const { secret, expiresAt } = loginTickets(runtime.store).issue({
        principalId: actor.principalId,
        form: 'code',
        now: Date.now(),
      })
      const origin = listeningUrl(runtime) ?? pageOrigin(http)
      return { ok: true, value: { code: secret, expiresAt, url: `${origin}/login` } }
    },
  })
}

/** The address an operator types, from the config: a wildcard bind is reached on loopback. */
export function pageOrigin(http: { readonly bind: string; readonly port: number }): string {
  const host = http.bind === '0.0.0.0' || http.bind === '::' ? '127.0.0.1' : http.bind
  return `http://${host.includes(':') ? `[${host}]` : host}:${http.port}`
}
