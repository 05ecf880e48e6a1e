import type { LocaleManage, Outcome } from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { principalExists, setPrincipalLocale } from '../store/people.ts'
import { DONE, type Refusal, refused, settling } from './outcome.ts'

/** locale.manage as the core's own surfaces call it: every business refusal is an Outcome. */
export interface LocaleOutcomes {
  setPrincipalLocale(principalId: string, locale: string): Promise<Outcome>
  setConversationLocale(channel: string, conversationId: string, locale: string): Promise<Outcome>
  availableLocales(): readonly string[]
}

/** locale.manage as a spore holds it: a refusal rejects with a RefusalError. */
export function localeManage(runtime: CoreRuntime): LocaleManage {
  const outcomes = localeOutcomes(runtime)
  const settle = settling(runtime.translator)
  return {
    async setPrincipalLocale(principalId, locale) {
      return settle.done(await outcomes.setPrincipalLocale(principalId, locale))
    },
    async setConversationLocale(channel, conversationId, locale) {
      return settle.done(await outcomes.setConversationLocale(channel, conversationId, locale))
    },
    availableLocales: () => outcomes.availableLocales(),
  }
}

/** A language some catalogue ships, for a reader or a whole conversation. */
export function localeOutcomes(runtime: CoreRuntime): LocaleOutcomes {
  const { store, directory, conversations, translator } = runtime
  const unavailable = (locale: string): Refusal | undefined => {
    const locales = translator.locales()
    return locales.includes(locale)
      ? undefined
      : refused('locale_unavailable', { locale, locales: locales.join(', ') })
  }
  return audited(runtime, 'locale.manage', {
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
  })
}
