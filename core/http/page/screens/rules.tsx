// Where commands may run (direct messages, groups), which channels each inhibitor judges, and the
// conversations a broadcast goes to.
import { type FormEvent, useState } from 'react'
import { api, part } from '../api.ts'
import { Badge, Empty, Notice, Problem, Section } from '../parts/bits.tsx'
import { Listing } from '../parts/listing.tsx'
import { useAction, useLoad } from '../parts/load.ts'
import { useCan } from '../session.ts'
import type { CommandLine, SporeInfo } from '../types.ts'
import { useWords } from '../words.ts'
import { ConversationsSection } from './conversations.tsx'

interface Rule {
  readonly command: string
  readonly allowed: readonly ('dm' | 'group')[]
}

const KINDS = ['dm', 'group'] as const

export function RulesScreen() {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const rules = useLoad(
    () => (can('admin.rules') ? api<{ rules: Rule[] }>('/rules') : Promise.resolve({ rules: [] })),
    [],
    words,
  )
  const spores = useLoad(
    () => (can('admin.plugins') ? api<{ spores: SporeInfo[] }>('/spores') : Promise.resolve({ spores: [] })),
    [],
    words,
  )
  const commands = useLoad(
    () =>
      can('admin.roles') ? api<{ commands: CommandLine[] }>('/commands') : Promise.resolve({ commands: [] }),
    [],
    words,
  )
  const action = useAction(words, rules.reload)
  const channels = (spores.data?.spores ?? [])
    .filter((spore) => spore.kind === 'hypha')
    .map((spore) => spore.name)
  const inhibitors = (spores.data?.spores ?? []).filter((spore) => spore.kind === 'inhibitor')
  const setRule = (command: string, allowed: readonly string[]) =>
    action.run(
      'rule',
      () => api(`/rules/${part(command)}`, { method: 'PUT', body: { allowed } }),
      t('rules.saved', { command }),
    )

  return (
    <>
      <h1>{t('rules.title')}</h1>
      <Notice notice={action.notice} />
      {can('admin.rules') ? (
        <Section title={t('rules.context.title')} hint={t('rules.context.hint')}>
          <Listing
            load={rules}
            count={rules.data?.rules.length ?? 0}
            empty={{ title: t('rules.context.empty'), text: t('rules.context.emptyText') }}
            columns={['command', 'where']}
            actions
          >
            {(rules.data?.rules ?? []).map((rule) => (
              <tr key={rule.command}>
                <th scope="row" className="mono">
                  {rule.command}
                </th>
                <td>
                  {rule.allowed.map((kind) => (
                    <Badge key={kind} tone="info">
                      {t(`where.${kind}`)}
                    </Badge>
                  ))}
                </td>
                <td className="actions">
                  {can('admin.rule') ? (
                    <button
                      type="button"
                      aria-label={t('rules.clearOne', { command: rule.command })}
                      onClick={() =>
                        action.run(
                          'clear',
                          () => api(`/rules/${part(rule.command)}`, { method: 'DELETE' }),
                          t('rules.cleared', { command: rule.command }),
                        )
                      }
                    >
                      {t('action.clear')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </Listing>
          {can('admin.rule') ? <NewRule commands={commands.data?.commands ?? []} save={setRule} /> : null}
        </Section>
      ) : null}
      {can('admin.rules') ? (
        <Section title={t('rules.confine.title')} hint={t('rules.confine.hint')}>
          {spores.data && inhibitors.length === 0 ? (
            <Empty title={t('rules.confine.empty')}>{t('rules.confine.emptyText')}</Empty>
          ) : null}
          {inhibitors.map((inhibitor) => (
            <Confinement key={inhibitor.name} inhibitor={inhibitor.name} channels={channels} />
          ))}
        </Section>
      ) : null}
      {can('admin.targets') ? <TargetsSection channels={channels} /> : null}
      {can('admin.conversations') ? <ConversationsSection /> : null}
    </>
  )
}

function NewRule({
  commands,
  save,
}: {
  readonly commands: readonly CommandLine[]
  readonly save: (command: string, allowed: string[]) => Promise<boolean>
}) {
  const { t } = useWords()
  const [command, setCommand] = useState('')
  const [allowed, setAllowed] = useState<string[]>(['dm'])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void save(command, allowed)
  }
  return (
    <form className="inline-form wrap" onSubmit={submit} aria-label={t('rules.add')}>
      <label htmlFor="rule-command">{t('column.command')}</label>
      {commands.length > 0 ? (
        <select
          id="rule-command"
          value={command}
          onChange={(event) => setCommand(event.target.value)}
          required
        >
          <option value="">{t('rules.pickCommand')}</option>
          {commands.map((one) => (
            <option key={one.qualified} value={one.qualified}>
              {one.qualified}
            </option>
          ))}
        </select>
      ) : (
        <input
          id="rule-command"
          value={command}
          onChange={(event) => setCommand(event.target.value)}
          placeholder="plugin.command"
          required
        />
      )}
      {KINDS.map((kind) => (
        <label key={kind} className="check">
          <input
            type="checkbox"
            checked={allowed.includes(kind)}
            onChange={(event) =>
              setAllowed(event.target.checked ? [...allowed, kind] : allowed.filter((one) => one !== kind))
            }
          />
          {t(`where.${kind}`)}
        </label>
      ))}
      <button type="submit" className="primary">
        {t('rules.addButton')}
      </button>
    </form>
  )
}

function Confinement({
  inhibitor,
  channels,
}: {
  readonly inhibitor: string
  readonly channels: readonly string[]
}) {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const judged = useLoad(
    () => api<{ channels: string[] }>(`/inhibitors/${part(inhibitor)}/channels`),
    [inhibitor],
    words,
  )
  const action = useAction(words, judged.reload)
  const current = judged.data?.channels ?? []
  const flip = (channel: string, on: boolean) => {
    const next = on ? [...current, channel] : current.filter((one) => one !== channel)
    void action.run(
      'confine',
      () => api(`/inhibitors/${part(inhibitor)}/channels`, { method: 'PUT', body: { channels: next } }),
      t('rules.confine.saved', { inhibitor }),
    )
  }
  return (
    <fieldset className="confine" disabled={!can('admin.confine') || action.busy !== undefined}>
      <legend>
        <strong>{inhibitor}</strong>{' '}
        <span className="sub">
          {current.length === 0
            ? t('rules.confine.everywhere')
            : t('rules.confine.only', { count: current.length })}
        </span>
      </legend>
      <Notice notice={action.notice} />
      {judged.error ? <Problem text={judged.error} retry={judged.reload} /> : null}
      {channels.map((channel) => (
        <label key={channel} className="check">
          <input
            type="checkbox"
            checked={current.includes(channel)}
            onChange={(event) => flip(channel, event.target.checked)}
          />
          {channel}
        </label>
      ))}
    </fieldset>
  )
}

function TargetsSection({ channels }: { readonly channels: readonly string[] }) {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const targets = useLoad(
    () => api<{ targets: { channel: string; conversationId: string }[] }>('/broadcast-targets'),
    [],
    words,
  )
  const action = useAction(words, targets.reload)
  const [channel, setChannel] = useState('')
  const [conversation, setConversation] = useState('')
  const list = targets.data?.targets ?? []
  const add = (event: FormEvent) => {
    event.preventDefault()
    void action.run(
      'add',
      () => api('/broadcast-targets', { body: { channel, conversationId: conversation } }),
      t('targets.added'),
    )
  }
  return (
    <Section title={t('targets.title')} hint={t('targets.hint')}>
      <Notice notice={action.notice} />
      <Listing
        load={targets}
        count={list.length}
        empty={{ title: t('targets.empty'), text: t('targets.emptyText') }}
        columns={['channel', 'conversation']}
        actions
      >
        {list.map((target) => (
          <tr key={`${target.channel}:${target.conversationId}`}>
            <th scope="row">{target.channel}</th>
            <td className="mono">{target.conversationId}</td>
            <td className="actions">
              {can('admin.target-remove') ? (
                <button
                  type="button"
                  className="danger"
                  onClick={() =>
                    action.run(
                      'remove',
                      () =>
                        api(`/broadcast-targets/${part(target.channel)}/${part(target.conversationId)}`, {
                          method: 'DELETE',
                        }),
                      t('targets.removed'),
                    )
                  }
                >
                  {t('action.remove')}
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </Listing>
      {can('admin.target-add') ? (
        <form className="inline-form wrap" onSubmit={add} aria-label={t('targets.add')}>
          <label>
            {t('column.channel')}{' '}
            <select value={channel} onChange={(event) => setChannel(event.target.value)} required>
              <option value="">{t('targets.pickChannel')}</option>
              {channels.map((one) => (
                <option key={one} value={one}>
                  {one}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('column.conversation')}{' '}
            <input value={conversation} onChange={(event) => setConversation(event.target.value)} required />
          </label>
          <button type="submit" className="primary">
            {t('targets.addButton')}
          </button>
        </form>
      ) : null}
    </Section>
  )
}
