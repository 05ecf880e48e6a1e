// Small pieces every screen uses: state badges, empty states, notices, headings.
import type { ReactNode } from 'react'
import { useWords } from '../words.ts'

const TONE: Record<string, string> = {
  live: 'good',
  healthy: 'good',
  ok: 'good',
  enabled: 'good',
  official: 'info',
  disabled: 'muted',
  'third-party': 'warn',
  degraded: 'warn',
  refused: 'warn',
  dormant: 'bad',
  unreachable: 'bad',
  failed: 'bad',
}

/** A state as a coloured badge, worded from the catalogue (`state.<name>`). */
export function StateBadge({ state }: { readonly state: string }) {
  const { t } = useWords()
  return <Badge tone={TONE[state] ?? 'muted'}>{t(`state.${state}`)}</Badge>
}

export function Badge({ tone, children }: { readonly tone: string; readonly children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>
}

/** What is missing, and what to do about it. */
export function Empty({
  title,
  children,
  action,
}: {
  readonly title: string
  readonly children?: ReactNode
  readonly action?: ReactNode
}) {
  return (
    <div className="empty" role="status">
      <p className="empty-title">{title}</p>
      {children ? <p className="empty-text">{children}</p> : null}
      {action ? <div className="empty-action">{action}</div> : null}
    </div>
  )
}

export function Notice({ notice }: { readonly notice: { kind: 'ok' | 'error'; text: string } | undefined }) {
  if (!notice) return null
  return (
    <p className={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      {notice.text}
    </p>
  )
}

/** A read that failed: the reason and a way to try again. */
export function Problem({ text, retry }: { readonly text: string; readonly retry?: () => void }) {
  const { t } = useWords()
  return (
    <div className="notice notice-error" role="alert">
      <span>{text}</span>
      {retry ? (
        <button type="button" className="link" onClick={retry}>
          {t('action.retry')}
        </button>
      ) : null}
    </div>
  )
}

export function Loading() {
  const { t } = useWords()
  return (
    <p className="loading" aria-busy="true">
      {t('loading')}
    </p>
  )
}

export function Section({
  title,
  hint,
  actions,
  children,
}: {
  readonly title: string
  readonly hint?: string
  readonly actions?: ReactNode
  readonly children: ReactNode
}) {
  return (
    <section className="card" aria-label={title}>
      <header className="card-head">
        <div>
          <h2>{title}</h2>
          {hint ? <p className="hint">{hint}</p> : null}
        </div>
        {actions ? <div className="card-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  )
}
