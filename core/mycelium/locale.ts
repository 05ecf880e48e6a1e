import type { LocaleManage } from '@mycelo/septum'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { principalExists, setPrincipalLocale } from '../store/people.ts'
import { DONE, type Refusal, refused } from './outcome.ts'

/** locale.manage: a language some catalogue ships, for a reader or a whole conversation. */
export function localeManage(runtime: CoreRuntime): LocaleManage {
  const { store, directory, conversations, translator } = runtime
  const unavailable = (locale: string): Refusal | undefined => {
    const locales = translator.locales()
    return locales.includes(locale)
      ? undefined
      : refused('locale_unavailable', { locale, locales: locales.join(', ') })
  }
  return {
    async setPrincipalLocale(principalId, locale) {
      if (!principalExists(store, principalId))
        return refused('principal_unknown', { principal: principalId })
      const refusal = unavailable(locale)
      if (refusal) return refusal
      setPrincipalLocale(store, principalId, locale)
      directory.invalidate()
      return DONE
    },
    async setConversationLocale(channel, conversationId, locale) {
      if (!conversations.has(channel, conversationId)) {
        return refused('conversation_unknown', { channel, conversation: conversationId })
      }
      const refusal = unavailable(locale)
      if (refusal) return refusal
      conversations.setLocale(channel, conversationId, locale)
      return DONE
    },
    availableLocales: () => translator.locales(),
  }
}
