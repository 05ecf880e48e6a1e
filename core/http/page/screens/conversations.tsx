// The conversations the bot has seen, each with the language it reads the bot in, as chat's
// /conversations and /lang-group show and set them.
import { api, part } from '../api.ts'
import { Badge, Notice, Section } from '../parts/bits.tsx'
import { Listing } from '../parts/listing.tsx'
import { useAction, useLoad } from '../parts/load.ts'
import { useCan } from '../session.ts'
import type { Conversation } from '../types.ts'
import { useWords } from '../words.ts'

export function ConversationsSection() {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const list = useLoad(() => api<{ conversations: Conversation[] }>('/conversations'), [], words)
  const action = useAction(words, list.reload)
  const conversations = list.data?.conversations ?? []
  const setLocale = (one: Conversation, locale: string) =>
    action.run(
      `locale:${one.channel}/${one.conversationId}`,
      () =>
        api(`/conversations/${part(one.channel)}/${part(one.conversationId)}/locale`, {
          method: 'PUT',
          body: { locale },
        }),
      t('conversations.saved', {
        conversation: one.label ?? one.conversationId,
        language: t(`locale.name.${locale}`),
      }),
    )
  return (
    <Section title={t('conversations.title')} hint={t('conversations.hint')}>
      <Notice notice={action.notice} />
      <Listing
        load={list}
        count={conversations.length}
        empty={{ title: t('conversations.empty'), text: t('conversations.emptyText') }}
        columns={['conversation', 'channel', 'kind', 'language']}
      >
        {conversations.map((one) => {
          const name = one.label ?? one.conversationId
          return (
            <tr key={`${one.channel}/${one.conversationId}`}>
              <th scope="row">
                {name}
                {one.label ? <span className="sub mono">{one.conversationId}</span> : null}
              </th>
              <td>{one.channel}</td>
              <td>
                <Badge tone="info">{t(`where.${one.kind}`)}</Badge>
              </td>
              <td>
                {can('admin.lang-group') ? (
                  <select
                    aria-label={t('conversations.languageOf', { conversation: name })}
                    value={one.locale ?? ''}
                    disabled={action.busy !== undefined}
                    onChange={(event) => {
                      if (event.target.value !== '') void setLocale(one, event.target.value)
                    }}
                  >
                    <option value="" disabled>
                      {t('conversations.default')}
                    </option>
                    {words.locales.map((locale) => (
                      <option key={locale} value={locale}>
                        {t(`locale.name.${locale}`)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span>{one.locale ? t(`locale.name.${one.locale}`) : t('conversations.default')}</span>
                )}
              </td>
            </tr>
          )
        })}
      </Listing>
    </Section>
  )
}
