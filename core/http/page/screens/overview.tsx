// The bot at a glance: version, uptime, traffic, every spore's state, what needs attention and
// the health each channel and connected system reports.
import { useEffect } from 'react'
import { api } from '../api.ts'
import { useLive } from '../live.ts'
import { Empty, Problem, Section, StateBadge } from '../parts/bits.tsx'
import { Listing } from '../parts/listing.tsx'
import { useLoad } from '../parts/load.ts'
import { useCan } from '../session.ts'
import type { HealthLine, ReportLine, Status } from '../types.ts'
import { useWords, type Words } from '../words.ts'

const STATUS_EVERY_MS = 15_000

export function OverviewScreen() {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const report = useLoad(() => api<{ spores: ReportLine[] }>('/report'), [], words)
  const status = useLoad(() => api<Status>('/status'), [], words)
  const health = useLoad(
    () => (can('admin.health') ? api<{ health: HealthLine[] }>('/health') : Promise.resolve({ health: [] })),
    [],
    words,
  )
  // The rate and the uptime move on their own: read them again now and then.
  useEffect(() => {
    const timer = setInterval(status.reload, STATUS_EVERY_MS)
    return () => clearInterval(timer)
  }, [status.reload])
  useLive((event) => {
    if (event.type === 'state') {
      report.reload()
      health.reload()
    }
  })
  const spores = report.data?.spores ?? []
  const count = (state: string) => spores.filter((spore) => spore.state === state).length
  const attention = spores.filter((spore) => spore.state === 'dormant')

  return (
    <>
      <h1>{t('overview.title')}</h1>
      {status.error ? <Problem text={status.error} retry={status.reload} /> : null}
      <div className="stats">
        <Stat label={t('overview.version')} value={status.data?.version ?? '…'} />
        <Stat
          label={t('overview.uptime')}
          value={status.data ? uptime(status.data.uptimeSeconds, words) : '…'}
        />
        <Stat
          label={t('overview.messagesPerMinute')}
          value={
            status.data?.messagesPerMinute === null || status.data === undefined
              ? '—'
              : t('overview.rate', { rate: status.data.messagesPerMinute })
          }
        />
        <Stat
          label={t('overview.sporesLive')}
          value={report.data ? t('overview.liveOf', { live: count('live'), total: spores.length }) : '…'}
        />
      </div>

      {attention.length > 0 ? (
        <Section title={t('overview.attention.title')} hint={t('overview.attention.hint')}>
          <ul className="attention">
            {attention.map((spore) => (
              <li key={spore.name}>
                <div className="attention-head">
                  <strong>{spore.name}</strong> <StateBadge state={spore.state} />
                </div>
                <p className="reason">{spore.reason}</p>
                <p className="todo">{t(adviceFor(spore.reason ?? ''))}</p>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <Section title={t('overview.spores.title')} hint={t('overview.spores.hint')}>
        <Listing
          load={report}
          count={spores.length}
          empty={{ title: t('overview.spores.empty'), text: t('overview.spores.emptyText') }}
          columns={['spore', 'kind', 'state', 'reason']}
        >
          {spores.map((spore) => (
            <tr key={spore.name} className={spore.state === 'dormant' ? 'row-bad' : undefined}>
              <th scope="row">{spore.name}</th>
              <td>{spore.kind ? t(`kind.${spore.kind}`) : '—'}</td>
              <td>
                <StateBadge state={spore.state} />
              </td>
              <td className="reason">{spore.reason ?? ''}</td>
            </tr>
          ))}
        </Listing>
      </Section>

      {can('admin.health') ? (
        <Section title={t('overview.health.title')} hint={t('overview.health.hint')}>
          {health.error ? <Problem text={health.error} retry={health.reload} /> : null}
          {health.data && health.data.health.length === 0 ? (
            <Empty title={t('overview.health.empty')}>{t('overview.health.emptyText')}</Empty>
          ) : null}
          {health.data && health.data.health.length > 0 ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('column.spore')}</th>
                  <th scope="col">{t('column.health')}</th>
                  <th scope="col">{t('column.detail')}</th>
                </tr>
              </thead>
              <tbody>
                {health.data.health.map((line) => (
                  <tr key={line.name}>
                    <th scope="row">{line.name}</th>
                    <td>
                      <StateBadge state={line.state} />
                    </td>
                    <td className="reason">{line.detail ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </Section>
      ) : null}
    </>
  )
}

function Stat({ label, value }: { readonly label: string; readonly value: string }) {
  return (
    <div className="stat">
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
    </div>
  )
}

function uptime(seconds: number, words: Words): string {
  const days = Math.floor(seconds / 86_400)
  const hours = Math.floor((seconds % 86_400) / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  if (days > 0) return words.t('overview.uptimeDays', { days, hours })
  if (hours > 0) return words.t('overview.uptimeHours', { hours, minutes })
  return words.t('overview.uptimeMinutes', { minutes })
}

/** What to do about a dormant spore, by what its reason says went wrong. */
function adviceFor(reason: string): string {
  if (/configur|setting|réglage/i.test(reason)) return 'overview.advice.settings'
  if (/requires|needs|dépend|requiert|missing/i.test(reason)) return 'overview.advice.requires'
  if (/module|load|charg/i.test(reason)) return 'overview.advice.module'
  if (/connect|reach|unreachable|joindre/i.test(reason)) return 'overview.advice.connect'
  return 'overview.advice.other'
}
