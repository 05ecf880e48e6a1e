// Roles and their command patterns, edited with a live preview of the commands they allow (the
// API matches them, as the message path does when it authorises).
import { type FormEvent, useEffect, useState } from 'react'
import { api, part } from '../api.ts'
import { Badge, Empty, Loading, Notice, Problem, Section } from '../parts/bits.tsx'
import { type Loaded, useAction } from '../parts/load.ts'
import { useCan } from '../session.ts'
import type { CommandLine, Role } from '../types.ts'
import { useWords } from '../words.ts'

const patternsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern !== '')

export function RolesSection({ roles }: { readonly roles: Loaded<{ roles: Role[] }> }) {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const action = useAction(words, roles.reload)
  const [editing, setEditing] = useState<string>()
  const list = roles.data?.roles ?? []
  return (
    <Section title={t('roles.title')} hint={t('roles.hint')}>
      <Notice notice={action.notice} />
      {roles.error ? <Problem text={roles.error} retry={roles.reload} /> : null}
      {roles.data && list.length === 0 ? <Empty title={t('roles.empty')} /> : null}
      <ul className="roles">
        {list.map((role) => (
          <li key={role.name} className="role">
            <div className="role-head">
              <strong>{role.name}</strong>{' '}
              {role.builtin ? <Badge tone="info">{t('roles.builtin')}</Badge> : null}
              <span className="actions">
                {can('admin.role-set') ? (
                  <button
                    type="button"
                    onClick={() => setEditing(editing === role.name ? undefined : role.name)}
                    aria-label={t('roles.editOne', { role: role.name })}
                  >
                    {t('action.edit')}
                  </button>
                ) : null}
                {!role.builtin && can('admin.role-delete') ? (
                  <button
                    type="button"
                    className="danger"
                    aria-label={t('roles.deleteOne', { role: role.name })}
                    onClick={() => {
                      if (!confirm(t('roles.confirmDelete', { role: role.name }))) return
                      void action.run(
                        'delete',
                        () => api(`/roles/${part(role.name)}`, { method: 'DELETE' }),
                        t('roles.deleted', { role: role.name }),
                      )
                    }}
                  >
                    {t('action.delete')}
                  </button>
                ) : null}
              </span>
            </div>
            {editing === role.name ? (
              <PatternsForm
                initial={role.patterns.join(' ')}
                submitLabel={t('action.save')}
                save={(patterns) =>
                  action
                    .run(
                      'save',
                      () => api(`/roles/${part(role.name)}`, { method: 'PUT', body: { patterns } }),
                      t('roles.saved', { role: role.name }),
                    )
                    .then((ok) => ok && setEditing(undefined))
                }
              />
            ) : (
              <p className="patterns">
                {role.patterns.length === 0 ? <span className="sub">{t('roles.noPatterns')}</span> : null}
                {role.patterns.map((pattern) => (
                  <code key={pattern}>{pattern}</code>
                ))}
              </p>
            )}
          </li>
        ))}
      </ul>
      {can('admin.role-create') ? (
        <NewRole
          create={(name, patterns) =>
            action.run(
              'create',
              () => api('/roles', { body: { name, patterns } }),
              t('roles.created', { role: name }),
            )
          }
        />
      ) : null}
    </Section>
  )
}

function NewRole({ create }: { readonly create: (name: string, patterns: string[]) => Promise<boolean> }) {
  const { t } = useWords()
  const [name, setName] = useState('')
  return (
    <details className="add">
      <summary>{t('roles.add')}</summary>
      <label className="stack">
        {t('roles.field.name')}
        <input value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <PatternsForm
        initial=""
        submitLabel={t('roles.addButton')}
        save={(patterns) => create(name, patterns).then(() => undefined)}
      />
    </details>
  )
}

/** Patterns typed as words; the preview asks the API which commands they allow. */
function PatternsForm({
  initial,
  submitLabel,
  save,
}: {
  readonly initial: string
  readonly submitLabel: string
  readonly save: (patterns: string[]) => unknown
}) {
  const words = useWords()
  const { t } = words
  const [text, setText] = useState(initial)
  const [preview, setPreview] = useState<CommandLine[]>()
  const [error, setError] = useState<string>()
  useEffect(() => {
    let current = true
    const patterns = patternsOf(text)
    const timer = setTimeout(() => {
      api<{ commands: CommandLine[] }>(`/commands?patterns=${encodeURIComponent(patterns.join(','))}`).then(
        (answer) => {
          if (!current) return
          setPreview(answer.commands)
          setError(undefined)
        },
        (problem: unknown) => current && setError(String((problem as Error).message)),
      )
    }, 200)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [text])
  const allowed = preview?.filter((command) => command.allowed) ?? []
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save(patternsOf(text))
  }
  return (
    <form onSubmit={submit} className="patterns-form">
      <label className="stack">
        {t('roles.field.patterns')}
        <textarea value={text} onChange={(event) => setText(event.target.value)} rows={2} />
        <span className="hint">{t('roles.field.patternsHint')}</span>
      </label>
      <div className="preview" role="status" aria-label={t('roles.preview')}>
        {/* Until the bot has answered, a count would read "0 of 0", which is not what the patterns allow. */}
        {preview === undefined && error === undefined ? (
          <Loading />
        ) : (
          <p className="preview-title">
            {t('roles.previewCount', { count: allowed.length, total: preview?.length ?? 0 })}
          </p>
        )}
        {error ? <Problem text={error} /> : null}
        <p className="patterns">
          {allowed.map((command) => (
            <code key={command.qualified}>/{command.name}</code>
          ))}
        </p>
      </div>
      <button type="submit" className="primary">
        {submitLabel}
      </button>
    </form>
  )
}
