// Installing from a source with a progress bar; upgrading, rolling back and uninstalling what came
// from one; and, before anyone enables it, what each installed spore asks for.
import { useState } from 'react'
import { flushSync } from 'react-dom'
import { api, part } from '../api.ts'
import { useLive } from '../live.ts'
import { SporeAsks } from '../parts/asks.tsx'
import { Empty, Loading, Notice, Problem, Section, StateBadge } from '../parts/bits.tsx'
import { describe, useAction, useLoad } from '../parts/load.ts'
import { type Step, withProgress } from '../parts/progress.ts'
import { useCan } from '../session.ts'
import type { OfferedSpore, Source, SporeInfo, SporeNeeds } from '../types.ts'
import { useWords } from '../words.ts'
import { SourcesSection } from './sources.tsx'

interface Running {
  readonly spore: string
  readonly verb: 'install' | 'upgrade'
  readonly step?: Step
}

export function InstallScreen() {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const sources = useLoad(
    () => (can('admin.sources') ? api<{ sources: Source[] }>('/sources') : Promise.resolve({ sources: [] })),
    [],
    words,
  )
  const [browsing, setBrowsing] = useState<string>()
  const offered = useLoad(
    () =>
      browsing === undefined
        ? Promise.resolve({ spores: [] as OfferedSpore[] })
        : api<{ spores: OfferedSpore[] }>(`/sources/${part(browsing)}/offered`),
    [browsing],
    words,
  )
  const installed = useLoad(() => api<{ spores: SporeInfo[] }>('/spores'), [], words)
  const needs = useLoad(() => api<{ spores: SporeNeeds[] }>('/spores-needs'), [], words)
  const [running, setRunning] = useState<Running>()
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string }>()
  const reread = () => {
    installed.reload()
    needs.reload()
  }
  const action = useAction(words, reread)
  useLive((event) => {
    if (event.type === 'state') reread()
  })

  const inoculate = async (verb: 'install' | 'upgrade', spore: string, body?: unknown) => {
    setResult(undefined)
    setRunning({ spore, verb })
    try {
      await withProgress(
        verb === 'install' ? '/installs' : `/installs/${part(spore)}/upgrade`,
        body,
        // Drawn as each step arrives: batched with the outcome, the last step (100%) was never shown.
        (step) => flushSync(() => setRunning({ spore, verb, step })),
      )
      setResult({ kind: 'ok', text: t(`install.done.${verb}`, { spore }) })
    } catch (problem) {
      setResult({ kind: 'error', text: describe(problem, words) })
    } finally {
      setRunning(undefined)
      reread()
    }
  }
  const fromSources = (installed.data?.spores ?? []).filter((spore) => spore.source !== undefined)
  const needsOf = (name: string) => needs.data?.spores.find((spore) => spore.name === name)
  const sourceLabel = (id: string | undefined) =>
    sources.data?.sources.find((source) => source.id === id)?.label ?? id ?? ''

  return (
    <>
      <h1>{t('install.title')}</h1>
      {running ? <ProgressBar running={running} /> : null}
      <Notice notice={result} />
      <Notice notice={action.notice} />
      {can('admin.sources') ? (
        <SourcesSection
          sources={sources}
          browsing={browsing}
          browse={(id) => setBrowsing(browsing === id ? undefined : id)}
        />
      ) : null}
      {browsing !== undefined ? (
        <Section title={t('offered.title', { source: sourceLabel(browsing) })} hint={t('offered.hint')}>
          {offered.error ? <Problem text={offered.error} retry={offered.reload} /> : null}
          {offered.loading ? <Loading /> : null}
          {!offered.loading && offered.data && offered.data.spores.length === 0 ? (
            <Empty title={t('offered.empty')}>{t('offered.emptyText')}</Empty>
          ) : null}
          {!offered.loading && offered.data && offered.data.spores.length > 0 ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('column.spore')}</th>
                  <th scope="col">{t('column.kind')}</th>
                  <th scope="col">{t('column.strain')}</th>
                  <th scope="col">
                    <span className="sr-only">{t('column.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {offered.data.spores.map((spore) => (
                  <OfferedRow
                    key={spore.name}
                    spore={spore}
                    installed={installed.data?.spores.some((one) => one.name === spore.name) ?? false}
                    busy={running !== undefined}
                    install={(strain) =>
                      inoculate('install', spore.name, { source: browsing, spore: spore.name, strain })
                    }
                  />
                ))}
              </tbody>
            </table>
          ) : null}
        </Section>
      ) : null}
      <Section title={t('installed.title')} hint={t('installed.hint')}>
        {installed.error ? <Problem text={installed.error} retry={installed.reload} /> : null}
        {installed.data && fromSources.length === 0 ? (
          <Empty title={t('installed.empty')}>{t('installed.emptyText')}</Empty>
        ) : null}
        {fromSources.length > 0 ? (
          <ul className="installed">
            {fromSources.map((spore) => {
              const asks = needsOf(spore.name)
              return (
                <li key={spore.name} className="installed-item">
                  <div className="installed-head">
                    <strong>{spore.name}</strong> <span className="mono small">{spore.strain}</span>{' '}
                    <StateBadge state={spore.state} />
                    <span className="sub">{t('installed.from', { source: sourceLabel(spore.source) })}</span>
                  </div>
                  {spore.reason ? <p className="reason">{spore.reason}</p> : null}
                  {!spore.enabled && asks ? <SporeAsks needs={asks} /> : null}
                  <div className="actions">
                    {!spore.enabled && can('admin.enable') ? (
                      <button
                        type="button"
                        className="primary"
                        aria-label={t('spores.enableOne', { spore: spore.name })}
                        disabled={action.busy !== undefined}
                        onClick={() =>
                          action.run(
                            'enable',
                            () => api(`/spores/${part(spore.name)}/enable`, { method: 'POST' }),
                            t('spores.done.enable', { spore: spore.name }),
                          )
                        }
                      >
                        {t('action.enable')}
                      </button>
                    ) : null}
                    {can('admin.upgrade') ? (
                      <button
                        type="button"
                        disabled={running !== undefined}
                        onClick={() => inoculate('upgrade', spore.name)}
                      >
                        {t('action.upgrade')}
                      </button>
                    ) : null}
                    {can('admin.rollback') ? (
                      <button
                        type="button"
                        disabled={action.busy !== undefined}
                        onClick={() =>
                          action.run(
                            'rollback',
                            () => api(`/installs/${part(spore.name)}/rollback`, { method: 'POST' }),
                            t('install.done.rollback', { spore: spore.name }),
                          )
                        }
                      >
                        {t('action.rollback')}
                      </button>
                    ) : null}
                    {can('admin.uninstall') ? (
                      <Uninstall
                        spore={spore.name}
                        busy={action.busy !== undefined}
                        uninstall={(keepData) =>
                          action.run(
                            'uninstall',
                            () =>
                              api(`/installs/${part(spore.name)}?keepData=${keepData ? 'true' : 'false'}`, {
                                method: 'DELETE',
                              }),
                            t(keepData ? 'install.done.uninstall' : 'install.done.uninstallData', {
                              spore: spore.name,
                            }),
                          )
                        }
                      />
                    ) : null}
                  </div>
                </li>
              )
            })}
          </ul>
        ) : null}
      </Section>
    </>
  )
}

function OfferedRow({
  spore,
  installed,
  busy,
  install,
}: {
  readonly spore: OfferedSpore
  readonly installed: boolean
  readonly busy: boolean
  readonly install: (strain: string | undefined) => void
}) {
  const { t } = useWords()
  const can = useCan()
  const [strain, setStrain] = useState(spore.strains[0]?.strain)
  return (
    <tr>
      <th scope="row">
        {spore.name}
        {spore.description ? <span className="sub">{spore.description}</span> : null}
      </th>
      <td>{t(`kind.${spore.kind}`)}</td>
      <td>
        <select
          value={strain}
          onChange={(event) => setStrain(event.target.value)}
          aria-label={t('offered.strainOf', { spore: spore.name })}
        >
          {spore.strains.map((one) => (
            <option key={one.strain} value={one.strain}>
              {one.strain}
            </option>
          ))}
        </select>
      </td>
      <td className="actions">
        {installed ? <span className="sub">{t('offered.installed')}</span> : null}
        {!installed && can('admin.install') ? (
          <button
            type="button"
            className="primary"
            disabled={busy}
            aria-label={t('offered.installOne', { spore: spore.name })}
            onClick={() => install(strain)}
          >
            {t('action.install')}
          </button>
        ) : null}
      </td>
    </tr>
  )
}

/** Uninstalling keeps what the spore stored unless the person ticks the box beside the button. */
function Uninstall({
  spore,
  busy,
  uninstall,
}: {
  readonly spore: string
  readonly busy: boolean
  readonly uninstall: (keepData: boolean) => void
}) {
  const { t } = useWords()
  const [withData, setWithData] = useState(false)
  return (
    <span className="inline-form">
      <button
        type="button"
        className="danger"
        disabled={busy}
        aria-label={t('install.uninstallOne', { spore })}
        onClick={() => {
          if (!confirm(t(withData ? 'install.confirmUninstallData' : 'install.confirmUninstall', { spore })))
            return
          uninstall(!withData)
        }}
      >
        {t('action.uninstall')}
      </button>
      <label className="check">
        <input type="checkbox" checked={withData} onChange={(event) => setWithData(event.target.checked)} />
        {t('install.withData')}
      </label>
    </span>
  )
}

function ProgressBar({ running }: { readonly running: Running }) {
  const { t } = useWords()
  const { step } = running
  const percent = step?.total ? Math.min(100, Math.round((step.received / step.total) * 100)) : undefined
  const label = t(`install.progress.${running.verb}`, { spore: running.spore })
  return (
    <div className="progress">
      <p>
        {label}{' '}
        {percent !== undefined
          ? t('install.percent', { percent })
          : step
            ? t('install.received', { kib: Math.round(step.received / 1024) })
            : t('install.starting')}
      </p>
      <progress aria-label={label} max={100} {...(percent !== undefined ? { value: percent } : {})} />
    </div>
  )
}
