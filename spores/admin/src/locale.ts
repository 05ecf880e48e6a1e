import type { Invocation } from '@mycelo/septum'
import { arg, say, sibling, typed } from './answers.ts'
import { type AdminContext, type Handlers, myceliumOf } from './mycelium.ts'
import { answerSettled } from './settled.ts'

/** The available locale the reader meant, matched without regard to case, or undefined. */
function chosen(invocation: Invocation, ctx: AdminContext): string | undefined {
  const wanted = arg(invocation, 'locale')?.toLowerCase()
  return myceliumOf(ctx)
    .availableLocales()
    .find((locale) => locale.toLowerCase() === wanted)
}

/**
 * A language's name in that language ("français" for fr), as a reader choosing one looks for it;
 * the tag itself when the runtime knows no name for it.
 */
export function languageName(locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language', fallback: 'code' }).of(locale) ?? locale
  } catch {
    return locale
  }
}

/** Names the languages there are, saying first why when the reader asked for one that is not. */
function choices(invocation: Invocation, ctx: AdminContext): Promise<void> {
  const locales = myceliumOf(ctx)
    .availableLocales()
    .map((locale) => `${languageName(locale)} (${locale})`)
    .join(', ')
  const asked = arg(invocation, 'locale')
  const lines = [
    ...(asked === undefined ? [] : [ctx.t('lang.unknown', { locale: asked })]),
    ctx.t('lang.choices', { locales, command: typed(invocation) }),
  ]
  return say(ctx, lines.join('\n'))
}

/** The reader's own language, and a group conversation's. Each confirms in the language just chosen. */
export const localeHandlers: Handlers = {
  async lang(invocation, ctx) {
    const locale = chosen(invocation, ctx)
    if (locale === undefined) return choices(invocation, ctx)
    const set = myceliumOf(ctx).setPrincipalLocale(ctx.principal.id, locale)
    await answerSettled(ctx, set, () =>
      ctx.t('lang.done', { locale, language: languageName(locale) }, locale),
    )
  },

  async langGroup(invocation, ctx) {
    const { message } = invocation
    if (message.group === undefined) {
      return say(ctx, ctx.t('lang.notGroup', { lang: sibling(invocation, 'lang') }))
    }
    const locale = chosen(invocation, ctx)
    if (locale === undefined) return choices(invocation, ctx)
    const set = myceliumOf(ctx).setConversationLocale(message.channel, message.conversationId, locale)
    await answerSettled(ctx, set, () =>
      ctx.t('lang.groupDone', { locale, language: languageName(locale) }, locale),
    )
  },
}
