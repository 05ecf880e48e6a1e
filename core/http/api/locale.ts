// Languages: the ones the catalogues ship, the session's own, and a conversation's, through
// localeOutcomes as chat's /lang and /lang-group set them.

import { z } from 'zod'
import { guardOf } from '../../mycelium/guards.ts'
import { localeOutcomes } from '../../mycelium/locale.ts'
import { answerOutcome } from './answer.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const localeBody = z.strictObject({ locale: z.string().min(1) })

export function localeRoutes({ runtime }: ApiDeps): ApiRoute[] {
  const locales = localeOutcomes(runtime)
  return [
    route({
      method: 'get',
      path: '/locales',
      summary: 'The languages the catalogues ship, and the bot’s default',
      guard: guardOf('locale.manage', 'availableLocales'),
      handle: ({ c }) =>
        c.json({ locales: locales.availableLocales(), defaultLocale: runtime.config.defaultLocale }),
    }),
    route({
      method: 'put',
      path: '/me/locale',
      summary: 'The language the session’s principal reads the bot in',
      guard: guardOf('locale.manage', 'setPrincipalLocale'),
      body: localeBody,
      handle: async ({ c, principalId, body }) =>
        answerOutcome(runtime, c, await locales.setPrincipalLocale(principalId, body.locale)),
    }),
    route({
      method: 'put',
      path: '/conversations/:channel/:conversationId/locale',
      summary: 'The language a whole conversation reads the bot in',
      guard: guardOf('locale.manage', 'setConversationLocale'),
      body: localeBody,
      handle: async ({ c, param, body }) =>
        answerOutcome(
          runtime,
          c,
          await locales.setConversationLocale(param('channel'), param('conversationId'), body.locale),
        ),
    }),
  ]
}
