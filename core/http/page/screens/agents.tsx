// Agent keys: how an MCP client connects, the person's keys (never a secret after the first
// showing), a new key whose secret is shown this once, revoke, and where confirmations are asked.
import { type FormEvent, useState } from 'react'
import { api, part } from '../api.ts'
import { Badge, Notice, Section } from '../parts/bits.tsx'
import { Listing } from '../parts/listing.tsx'
import { useAction } from '../parts/load.ts'
import { useAgentKeys, useConversations } from '../parts/shared-loads.ts'
import { useCan } from '../session.ts'
import type { AgentKey } from '../types.ts'
import { useWords } from '../words.ts'

interface Made {
  readonly key: AgentKey
  readonly secret: string
}

export function AgentsSection() {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const keys = useAgentKeys(words)
  const conversations = useConversations(words)
  const action = useAction(words, keys.reload)
  const [label, setLabel] = useState('')
  // Held in this component only: leaving the screen forgets it, and no list answers it again.
  const [made, setMade] = useState<Made>()
  const canWrite = can('admin.agent-key')
  const create = async (event: FormEvent) => {
    event.preventDefault()
    let answer: Made | undefined
    const done = await action.run('create', async () => {
      answer = await api<Made>('/agent-keys', { method: 'POST', body: { label } })
    })
    if (done && answer) {
      setMade(answer)
      setLabel('')
    }
  }
  const revoke = (key: AgentKey) =>
    action.run(
      `revoke:${key.id}`,
      () => api(`/agent-keys/${part(key.id)}`, { method: 'DELETE' }),
      t('agents.revoked', { label: key.label }),
    )
  const confirmIn = (key: AgentKey, choice: string) => {
    const chosen = (conversations.data?.conversations ?? []).find(
      (one) => `${one.channel}\u0000${one.conversationId}` === choice,
    )
    const where = chosen ? { channel: chosen.channel, conversationId: chosen.conversationId } : 'client'
    return action.run(
      `confirm:${key.id}`,
      () => api(`/agent-keys/${part(key.id)}/confirm`, { method: 'PUT', body: { where } }),
      t('agents.confirmSaved', { label: key.label }),
    )
  }
  const list = keys.data?.keys ?? []
  const mcpUrl = `${location.origin}/mcp`

  return (
    <Section title={t('agents.title')} hint={t('agents.hint')}>
      <div className="connect-hint">
        <p>{t('agents.connect')}</p>
        <dl className="pairs">
          <dt>{t('agents.url')}</dt>
          <dd className="mono">{mcpUrl}</dd>
          <dt>{t('agents.header')}</dt>
          <dd className="mono">Authorization: Bearer &lt;{t('agents.secretWord')}&gt;</dd>
        </dl>
      </div>
      <Notice notice={action.notice} />
      {made ? (
        <div className="notice notice-ok secret-once" role="status" aria-label={t('agents.secretTitle')}>
          <p>
            <strong>{t('agents.secretTitle')}</strong> {t('agents.secretOnce', { label: made.key.label })}
          </p>
          <p className="mono secret-value">{made.secret}</p>
          <button type="button" onClick={() => setMade(undefined)}>
            {t('agents.secretDone')}
          </button>
        </div>
      ) : null}
      {canWrite ? (
        <form className="inline-form" onSubmit={create} aria-label={t('agents.create')}>
          <input
            value={label}
            onChange={(event) => setLabel(event.target.value)}
            aria-label={t('agents.label')}
            placeholder={t('agents.labelPlaceholder')}
            maxLength={64}
          />
          <button
            type="submit"
            className="primary"
            disabled={label.trim() === '' || action.busy !== undefined}
          >
            {t('agents.createButton')}
          </button>
        </form>
      ) : null}
      {can('admin.agent-keys') ? (
        <Listing
          load={keys}
          count={list.length}
          empty={{ title: t('agents.empty'), text: t('agents.emptyText') }}
          columns={['label', 'created', 'used', 'confirms']}
          actions
        >
          {list.map((key) => (
            <tr key={key.id} className={key.revokedAt ? 'row-muted' : undefined}>
              <th scope="row">{key.label}</th>
              <td>{new Date(key.createdAt).toLocaleString(words.locale)}</td>
              <td>
                {key.lastUsedAt ? new Date(key.lastUsedAt).toLocaleString(words.locale) : t('agents.never')}
              </td>
              <td>
                {key.revokedAt ? (
                  <Badge tone="muted">{t('agents.revokedBadge')}</Badge>
                ) : canWrite ? (
                  <select
                    aria-label={t('agents.confirmOf', { label: key.label })}
                    value={
                      key.confirmIn ? `${key.confirmIn.channel}\u0000${key.confirmIn.conversationId}` : ''
                    }
                    onChange={(event) => confirmIn(key, event.target.value)}
                  >
                    <option value="">{t('agents.inClient')}</option>
                    {(conversations.data?.conversations ?? []).map((one) => (
                      <option
                        key={`${one.channel}/${one.conversationId}`}
                        value={`${one.channel}\u0000${one.conversationId}`}
                      >
                        {one.kind === 'dm'
                          ? t('agents.inDm', {
                              person: one.label ?? one.conversationId,
                              channel: one.channel,
                            })
                          : t('agents.inChat', {
                              conversation: one.label ?? one.conversationId,
                              channel: one.channel,
                            })}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span>{key.confirmIn ? t('agents.overChat') : t('agents.inClient')}</span>
                )}
              </td>
              <td className="actions">
                {canWrite && !key.revokedAt ? (
                  <button
                    type="button"
                    disabled={action.busy !== undefined}
                    aria-label={t('agents.revokeOne', { label: key.label })}
                    onClick={() => revoke(key)}
                  >
                    {t('action.revoke')}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </Listing>
      ) : null}
    </Section>
  )
}
