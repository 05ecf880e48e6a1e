// Every spore with its switch: enable, disable, reload, its settings form, and the requires graph.
import { Fragment, useState } from 'react'
import { api, part } from '../api.ts'
import { useLive } from '../live.ts'
import { Empty, Notice, Problem, Section, StateBadge } from '../parts/bits.tsx'
import { ConnectDiscord } from '../parts/connect-discord.tsx'
import { RequiresGraph } from '../parts/graph.tsx'
import { Listing } from '../parts/listing.tsx'
import { useAction, useLoad } from '../parts/load.ts'
import { SettingsForm } from '../parts/settings-form.tsx'
import { useCan } from '../session.ts'
import type { SporeInfo, SporeNeeds } from '../types.ts'
import { useWords } from '../words.ts'

export function SporesScreen() {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const list = useLoad(() => api<{ spores: SporeInfo[] }>('/spores'), [], words)
  const needs = useLoad(() => api<{ spores: SporeNeeds[] }>('/spores-needs'), [], words)
  const [open, setOpen] = useState<string>()
  const reread = () => {
    list.reload()
    needs.reload()
  }
  const action = useAction(words, reread)
  useLive((event) => {
    if (event.type === 'state') reread()
  })
  const spores = list.data?.spores ?? []
  const toggle = (spore: SporeInfo, verb: 'enable' | 'disable' | 'reload') =>
    action.run(
      `${verb}:${spore.name}`,
      () => api(`/spores/${part(spore.name)}/${verb}`, { method: 'POST' }),
      t(`spores.done.${verb}`, { spore: spore.name }),
    )
  const canForm = can('admin.form')

  return (
    <>
      <h1>{t('spores.title')}</h1>
      <Notice notice={action.notice} />
      <Section
        title={t('spores.list.title')}
        hint={t('spores.list.hint')}
        actions={can('admin.rescan') ? <Rescan after={reread} /> : null}
      >
        <Listing
          load={list}
          count={spores.length}
          empty={{ title: t('spores.empty'), text: t('spores.emptyText') }}
          columns={['spore', 'kind', 'state', 'runs', 'reason']}
          actions
        >
          {spores.map((spore) => (
            <Fragment key={spore.name}>
              <tr className={spore.state === 'dormant' ? 'row-bad' : undefined}>
                <th scope="row">
                  {spore.name}
                  {spore.description ? <span className="sub">{spore.description}</span> : null}
                </th>
                <td>{spore.kind ? t(`kind.${spore.kind}`) : '—'}</td>
                <td>
                  <StateBadge state={spore.state} />
                </td>
                <td>
                  {spore.isolation ? t(`isolation.${spore.isolation}`) : '—'}
                  {spore.restarted ? (
                    <span className="sub">
                      {t('isolation.restarted', {
                        count: spore.restarted.count,
                        reason: spore.restarted.reason,
                      })}
                    </span>
                  ) : null}
                </td>
                <td className="reason">{spore.reason ?? ''}</td>
                <td className="actions">
                  {spore.enabled && can('admin.disable') ? (
                    <button
                      type="button"
                      disabled={action.busy !== undefined}
                      aria-label={t('spores.disableOne', { spore: spore.name })}
                      onClick={() => toggle(spore, 'disable')}
                    >
                      {t('action.disable')}
                    </button>
                  ) : null}
                  {!spore.enabled && can('admin.enable') ? (
                    <button
                      type="button"
                      className="primary"
                      disabled={action.busy !== undefined}
                      aria-label={t('spores.enableOne', { spore: spore.name })}
                      onClick={() => toggle(spore, 'enable')}
                    >
                      {t('action.enable')}
                    </button>
                  ) : null}
                  {spore.enabled && can('admin.reload') ? (
                    <button
                      type="button"
                      disabled={action.busy !== undefined}
                      aria-label={t('spores.reloadOne', { spore: spore.name })}
                      onClick={() => toggle(spore, 'reload')}
                    >
                      {t('action.reload')}
                    </button>
                  ) : null}
                  {canForm ? (
                    <button
                      type="button"
                      aria-expanded={open === spore.name}
                      aria-label={t('spores.settingsOne', { spore: spore.name })}
                      onClick={() => setOpen(open === spore.name ? undefined : spore.name)}
                    >
                      {t('action.settings')}
                    </button>
                  ) : null}
                </td>
              </tr>
              {open === spore.name ? (
                <tr className="row-panel">
                  <td colSpan={5}>
                    <section aria-label={t('settings.title', { spore: spore.name })}>
                      <h3>{t('settings.title', { spore: spore.name })}</h3>
                      <SettingsForm spore={spore.name} onSaved={reread} />
                    </section>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </Listing>
      </Section>
      {spores.some((spore) => spore.name === 'discord') && can('admin.set') && can('admin.enable') ? (
        <ConnectDiscord after={reread} />
      ) : null}
      <Section title={t('graph.title')} hint={t('graph.hint')}>
        {needs.error ? <Problem text={needs.error} retry={needs.reload} /> : null}
        {needs.data && needs.data.spores.length > 0 ? <RequiresGraph spores={needs.data.spores} /> : null}
        {needs.data && needs.data.spores.length === 0 ? <Empty title={t('spores.empty')} /> : null}
      </Section>
    </>
  )
}

interface RescanReport {
  readonly found: readonly { name: string; state: string; reason?: string }[]
  readonly refused: readonly { name: string; reason: string }[]
}

/** Looks through the spores folders again and says what it found and what it refused. */
function Rescan({ after }: { readonly after: () => void }) {
  const words = useWords()
  const { t } = words
  const action = useAction(words, after)
  const [report, setReport] = useState<RescanReport>()
  const look = () =>
    action.run('rescan', async () => {
      setReport(await api<RescanReport>('/spores/rescan', { method: 'POST' }))
    })
  return (
    <div className="rescan">
      <button type="button" disabled={action.busy !== undefined} onClick={look}>
        {t('spores.rescan.button')}
      </button>
      <Notice notice={action.notice} />
      {report ? (
        <div className="notice notice-ok" role="status" aria-label={t('spores.rescan.title')}>
          {report.found.length + report.refused.length === 0 ? (
            <span>{t('spores.rescan.none')}</span>
          ) : (
            <ul>
              {report.found.map((one) => (
                <li key={`found:${one.name}`}>
                  {t('spores.rescan.found', { spore: one.name, state: t(`state.${one.state}`) })}
                  {one.reason ? ` — ${one.reason}` : ''}
                </li>
              ))}
              {report.refused.map((one) => (
                <li key={`refused:${one.name}`}>
                  {t('spores.rescan.refused', { spore: one.name, reason: one.reason })}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  )
}
