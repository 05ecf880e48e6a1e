// The bot's log as it is written, filtered by level, and the audit log: who changed what, when,
// on which surface, and how it ended.
import { useState } from 'react'
import { type AuditNames, auditSentenceParams } from '../../../audit/sentence.ts'
import { api } from '../api.ts'
import { useLive } from '../live.ts'
import { Badge, Empty, Section } from '../parts/bits.tsx'
import { Listing } from '../parts/listing.tsx'
import { useLoad } from '../parts/load.ts'
import { useAgentKeys, useConversations } from '../parts/shared-loads.ts'
import { useCan } from '../session.ts'
import type { AuditEntry, Principal } from '../types.ts'
import { useWords } from '../words.ts'

const LEVELS = [
  ['trace', 10],
  ['debug', 20],
  ['info', 30],
  ['warn', 40],
  ['error', 50],
  ['fatal', 60],
] as const
const KEPT = 500
const TONE: Record<string, string> = {
  trace: 'muted',
  debug: 'muted',
  info: 'info',
  warn: 'warn',
  error: 'bad',
  fatal: 'bad',
}
const OUTCOME: Record<string, string> = { ok: 'good', refused: 'warn', failed: 'bad' }

interface LogLine {
  readonly id: number
  readonly level: number
  readonly time: number
  readonly msg: string
  readonly from: string
}

function levelName(level: number): string {
  return [...LEVELS].reverse().find(([, value]) => level >= value)?.[0] ?? 'info'
}

export function LogsScreen() {
  const { t } = useWords()
  const can = useCan()
  return (
    <>
      <h1>{t('logs.title')}</h1>
      {can('admin.logs') ? <LiveTail /> : null}
      {can('admin.audit') ? <AuditSection /> : null}
    </>
  )
}

let lineIds = 0

function LiveTail() {
  const { t, locale } = useWords()
  const [lines, setLines] = useState<LogLine[]>([])
  const [minimum, setMinimum] = useState(30)
  const [paused, setPaused] = useState(false)
  useLive((event) => {
    if (event.type !== 'log' || paused) return
    const record = event.record
    lineIds += 1
    const line: LogLine = {
      id: lineIds,
      level: typeof record.level === 'number' ? record.level : 30,
      time: typeof record.time === 'number' ? record.time : Date.now(),
      msg: String(record.msg ?? ''),
      from: String(record.spore ?? record.plugin ?? record.name ?? ''),
    }
    setLines((old) => [line, ...old].slice(0, KEPT))
  })
  const shown = lines.filter((line) => line.level >= minimum)
  return (
    <Section
      title={t('logs.live.title')}
      hint={t('logs.live.hint')}
      actions={
        <>
          <label>
            {t('logs.level')}{' '}
            <select value={minimum} onChange={(event) => setMinimum(Number(event.target.value))}>
              {LEVELS.map(([name, value]) => (
                <option key={name} value={value}>
                  {t(`level.${name}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>
            {t(paused ? 'action.resume' : 'action.pause')}
          </button>
        </>
      }
    >
      {shown.length === 0 ? (
        <Empty title={t('logs.live.empty')}>{t('logs.live.emptyText')}</Empty>
      ) : (
        <table className="logs">
          <thead>
            <tr>
              <th scope="col">{t('column.time')}</th>
              <th scope="col">{t('column.level')}</th>
              <th scope="col">{t('column.message')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((line) => (
              <tr key={line.id}>
                <td className="mono small">{new Date(line.time).toLocaleTimeString(locale)}</td>
                <td>
                  <Badge tone={TONE[levelName(line.level)] ?? 'muted'}>
                    {t(`level.${levelName(line.level)}`)}
                  </Badge>
                </td>
                <td>
                  {line.from ? <span className="sub mono">{line.from}</span> : null}
                  {line.msg}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  )
}

function AuditSection() {
  const words = useWords()
  const { t, locale } = words
  const [before, setBefore] = useState<number>()
  const [older, setOlder] = useState<AuditEntry[]>([])
  const can = useCan()
  const audit = useLoad(
    () => api<{ entries: AuditEntry[] }>(`/audit?limit=50${before ? `&before=${before}` : ''}`),
    [before],
    words,
  )
  // Names for the ids the log records, when the session may read people.
  const people = useLoad(
    () =>
      can('admin.people')
        ? api<{ principals: Principal[] }>('/principals')
        : Promise.resolve({ principals: [] }),
    [],
    words,
  )
  // Conversations and agent keys by name, where the session may read them; an id otherwise.
  const conversations = useConversations(words)
  const agentKeys = useAgentKeys(words)
  const personOf = (id: string) => people.data?.principals.find((principal) => principal.id === id)
  const asMet = (id: string) => {
    const found = personOf(id)
    return found?.identities[0]?.displayName ?? found?.identities[0]?.externalId
  }
  const nameOf = (id: string) => personOf(id)?.displayName ?? asMet(id)
  const names: AuditNames = {
    person: nameOf,
    personAsMet: asMet,
    conversation: (channel, id) =>
      conversations.data?.conversations.find((one) => one.channel === channel && one.conversationId === id)
        ?.label,
    language: (code) => new Intl.DisplayNames([locale], { type: 'language' }).of(code),
    agentKey: (id) => agentKeys.data?.keys.find((key) => key.id === id)?.label,
  }
  /** Who did it, as a person reads it: a name, the operator at the machine, or a spore on its own. */
  const whoDid = (entry: AuditEntry) => {
    if (entry.actorKind === 'operator') return t('audit.operator')
    if (entry.actorKind === 'spore') return t('audit.spore', { spore: entry.actor })
    return nameOf(entry.actor)
  }
  /** What was done, as a sentence drawn from the call's own arguments (core/audit/sentence.ts). */
  const whatWasDone = (entry: AuditEntry) => {
    const params = auditSentenceParams(entry.method, entry.args, names)
    const key = `audit.op.${entry.method}`
    return params !== undefined && words.has(key) ? t(key, params) : undefined
  }
  const entries =
    before === undefined ? (audit.data?.entries ?? []) : [...older, ...(audit.data?.entries ?? [])]
  const more = () => {
    setOlder(entries)
    setBefore(entries.at(-1)?.id)
  }
  return (
    <Section
      title={t('audit.title')}
      hint={t('audit.hint')}
      actions={
        <button
          type="button"
          onClick={() => {
            setOlder([])
            setBefore(undefined)
            audit.reload()
          }}
        >
          {t('action.refresh')}
        </button>
      }
    >
      <Listing
        load={audit}
        count={entries.length}
        empty={{ title: t('audit.empty'), text: t('audit.emptyText') }}
        columns={['when', 'who', 'what', 'outcome']}
      >
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td className="small">{new Date(entry.at).toLocaleString(locale)}</td>
            <td>
              {whoDid(entry) ? (
                <strong>{whoDid(entry)}</strong>
              ) : (
                <span className="mono small">{entry.actor}</span>
              )}
              <span className="sub">
                {t('audit.on', {
                  via: entry.via,
                  channel: personOf(entry.actor)?.identities[0]?.channel ?? 'none',
                })}
              </span>
            </td>
            <td>
              {whatWasDone(entry) ?? (
                <>
                  <code>{entry.method}</code>
                  {Array.isArray(entry.args) && entry.args.length > 0 ? (
                    <span className="sub mono">
                      {entry.args
                        .map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg)))
                        .join(' ')}
                    </span>
                  ) : null}
                </>
              )}
            </td>
            <td>
              <Badge tone={OUTCOME[entry.outcome] ?? 'muted'}>{t(`outcome.${entry.outcome}`)}</Badge>
              {entry.detail ? <span className="sub">{entry.detail}</span> : null}
            </td>
          </tr>
        ))}
      </Listing>
      {audit.data && audit.data.entries.length === 50 ? (
        <button type="button" onClick={more}>
          {t('action.older')}
        </button>
      ) : null}
    </Section>
  )
}
