// The sporangia spores come from: add, edit, switch, delete, each with its trust and pinned key.
import { type FormEvent, useState } from 'react'
import { api, part } from '../api.ts'
import { Badge, Notice, Section } from '../parts/bits.tsx'
import { Listing } from '../parts/listing.tsx'
import { type Loaded, useAction } from '../parts/load.ts'
import { useCan } from '../session.ts'
import type { Source } from '../types.ts'
import { useWords } from '../words.ts'

export function SourcesSection({
  sources,
  browse,
  browsing,
}: {
  readonly sources: Loaded<{ sources: Source[] }>
  readonly browse: (id: string) => void
  readonly browsing: string | undefined
}) {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const action = useAction(words, sources.reload)
  const [editing, setEditing] = useState<string>()
  const list = sources.data?.sources ?? []
  const remove = (source: Source) => {
    if (!confirm(t('sources.confirmDelete', { source: source.label }))) return
    void action.run(
      'delete',
      () => api(`/sources/${part(source.id)}`, { method: 'DELETE' }),
      t('sources.deleted', { source: source.label }),
    )
  }
  const flip = (source: Source) =>
    action.run(
      'flip',
      () => api(`/sources/${part(source.id)}/${source.enabled ? 'disable' : 'enable'}`, { method: 'POST' }),
      t(source.enabled ? 'sources.disabled' : 'sources.enabled', { source: source.label }),
    )
  return (
    <Section title={t('sources.title')} hint={t('sources.hint')}>
      <Notice notice={action.notice} />
      <Listing
        load={sources}
        count={list.length}
        empty={{ title: t('sources.empty'), text: t('sources.emptyText') }}
        columns={['source', 'trust', 'key']}
        actions
      >
        {list.map((source) =>
          editing === source.id ? (
            <tr key={source.id} className="row-panel">
              <td colSpan={4}>
                <SourceForm
                  source={source}
                  onDone={() => {
                    setEditing(undefined)
                    sources.reload()
                  }}
                />
              </td>
            </tr>
          ) : (
            <tr key={source.id}>
              <th scope="row">
                {source.label} {source.enabled ? null : <Badge tone="muted">{t('state.disabled')}</Badge>}
                <span className="sub mono">{source.url}</span>
              </th>
              <td>
                <Badge tone={source.trust === 'official' ? 'info' : 'warn'}>
                  {t(`trust.${source.trust}`)}
                </Badge>
                {source.token ? <span className="sub">{t('sources.hasToken')}</span> : null}
              </td>
              <td className="mono small key">{source.publisherKey ?? t('sources.keyOnFirstSight')}</td>
              <td className="actions">
                {can('admin.offered') ? (
                  <button
                    type="button"
                    aria-pressed={browsing === source.id}
                    aria-label={t('sources.browseOne', { source: source.label })}
                    onClick={() => browse(source.id)}
                  >
                    {t('action.browse')}
                  </button>
                ) : null}
                {source.trust !== 'official' && can('admin.source-set') ? (
                  <button
                    type="button"
                    onClick={() => setEditing(source.id)}
                    aria-label={t('sources.editOne', { source: source.label })}
                  >
                    {t('action.edit')}
                  </button>
                ) : null}
                {can(source.enabled ? 'admin.source-disable' : 'admin.source-enable') ? (
                  <button type="button" onClick={() => flip(source)} disabled={action.busy !== undefined}>
                    {t(source.enabled ? 'action.disable' : 'action.enable')}
                  </button>
                ) : null}
                {source.trust !== 'official' && can('admin.source-delete') ? (
                  <button
                    type="button"
                    className="danger"
                    onClick={() => remove(source)}
                    aria-label={t('sources.deleteOne', { source: source.label })}
                  >
                    {t('action.delete')}
                  </button>
                ) : null}
              </td>
            </tr>
          ),
        )}
      </Listing>
      {can('admin.source-add') ? (
        <details className="add">
          <summary>{t('sources.add')}</summary>
          <SourceForm onDone={sources.reload} />
        </details>
      ) : null}
    </Section>
  )
}

/** Adds a source, or edits one: a token left as •••• stays, an empty one is removed. */
function SourceForm({ source, onDone }: { readonly source?: Source; readonly onDone: () => void }) {
  const words = useWords()
  const { t } = words
  const action = useAction(words, onDone)
  const [label, setLabel] = useState(source?.label ?? '')
  const [url, setUrl] = useState(source?.url ?? '')
  const [token, setToken] = useState(source?.token ?? '')
  const [key, setKey] = useState(source?.publisherKey ?? '')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = {
      label,
      url,
      ...(token !== '' || source?.token ? { token } : {}),
      ...(key !== '' ? { publisherKey: key } : {}),
    }
    void action.run(
      'save',
      () =>
        source
          ? api(`/sources/${part(source.id)}`, { method: 'PATCH', body })
          : api('/sources', { method: 'POST', body }),
      t(source ? 'sources.saved' : 'sources.added', { source: label }),
    )
  }
  return (
    <form className="grid-form" onSubmit={submit} aria-label={t(source ? 'sources.edit' : 'sources.add')}>
      <Notice notice={action.notice} />
      <label>
        {t('sources.field.label')}
        <input value={label} onChange={(event) => setLabel(event.target.value)} required />
      </label>
      <label>
        {t('sources.field.url')}
        <input value={url} onChange={(event) => setUrl(event.target.value)} required placeholder="https://" />
      </label>
      <label>
        {t('sources.field.token')}
        <input
          type="password"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          autoComplete="off"
        />
        <span className="hint">{t('sources.field.tokenHint')}</span>
      </label>
      <label>
        {t('sources.field.key')}
        <input value={key} onChange={(event) => setKey(event.target.value)} placeholder="ed25519:…" />
        <span className="hint">{t('sources.field.keyHint')}</span>
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={action.busy !== undefined}>
          {t(source ? 'action.save' : 'sources.addButton')}
        </button>
        {source ? (
          <button type="button" onClick={onDone}>
            {t('action.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  )
}
