// Access: the agents that act for the signed-in person, their own web sessions, and the bot's
// configuration as a file, each part shown only when the person's roles allow it.
import { api, part } from '../api.ts'
import { Badge, Notice, Section } from '../parts/bits.tsx'
import { Listing } from '../parts/listing.tsx'
import { useAction, useLoad } from '../parts/load.ts'
import { useCan } from '../session.ts'
import type { WebSession } from '../types.ts'
import { useWords } from '../words.ts'
import { AgentsSection } from './agents.tsx'

export function AccessScreen() {
  const { t } = useWords()
  const can = useCan()
  return (
    <>
      <h1>{t('access.title')}</h1>
      {can('admin.agent-keys') || can('admin.agent-key') ? <AgentsSection /> : null}
      <SessionsSection />
      {can('core.export') ? <ExportSection /> : null}
    </>
  )
}

/** The person's own sessions: anyone signed in may see and end theirs. */
function SessionsSection() {
  const words = useWords()
  const { t, locale } = words
  const sessions = useLoad(() => api<{ sessions: WebSession[] }>('/session/sessions'), [], words)
  const action = useAction(words, sessions.reload)
  const list = sessions.data?.sessions ?? []
  const others = list.filter((one) => !one.current).length
  const when = (at: number) => new Date(at).toLocaleString(locale)
  return (
    <Section
      title={t('sessions.title')}
      hint={t('sessions.hint')}
      actions={
        <button
          type="button"
          disabled={others === 0 || action.busy !== undefined}
          onClick={() =>
            action.run(
              'others',
              () => api('/session/sessions/others', { method: 'DELETE' }),
              t('sessions.othersEnded'),
            )
          }
        >
          {t('sessions.endOthers')}
        </button>
      }
    >
      <Notice notice={action.notice} />
      <Listing
        load={sessions}
        count={list.length}
        empty={{ title: t('sessions.empty') }}
        columns={['session', 'since', 'lastSeen', 'until']}
        actions
      >
        {list.map((one) => (
          <tr key={one.id}>
            <th scope="row" className="mono">
              {one.id.slice(0, 8)}
              {one.current ? <Badge tone="good">{t('sessions.this')}</Badge> : null}
            </th>
            <td>{when(one.createdAt)}</td>
            <td>{when(one.lastSeenAt)}</td>
            <td>{when(one.expiresAt)}</td>
            <td className="actions">
              {one.current ? null : (
                <button
                  type="button"
                  disabled={action.busy !== undefined}
                  aria-label={t('sessions.endOne', { session: one.id.slice(0, 8) })}
                  onClick={() =>
                    action.run(
                      `end:${one.id}`,
                      () => api(`/session/sessions/${part(one.id)}`, { method: 'DELETE' }),
                      t('sessions.ended'),
                    )
                  }
                >
                  {t('sessions.end')}
                </button>
              )}
            </td>
          </tr>
        ))}
      </Listing>
    </Section>
  )
}

/** The configuration file `mycelo export` writes, without secrets: a plain download. */
function ExportSection() {
  const { t } = useWords()
  return (
    <Section title={t('export.title')} hint={t('export.hint')}>
      <p>
        <a className="button primary" href="/api/v1/export" download="mycelo-config.yaml">
          {t('export.download')}
        </a>
      </p>
    </Section>
  )
}
