// Talking to the bot from the browser as yourself, through the `web` channel spore: every rule
// (admission, roles, language) applies as on any other channel. Without the spore live, the
// screen says how to switch it on.
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { api, request } from '../api.ts'
import { Empty, Notice } from '../parts/bits.tsx'
import { describe, useAction } from '../parts/load.ts'
import { useCan } from '../session.ts'
import type { SporeInfo } from '../types.ts'
import { useWords } from '../words.ts'

const WEB = 'web'

interface Line {
  readonly id: string
  readonly from: 'me' | 'bot'
  readonly text: string
  readonly at: Date
}

type Link = 'connecting' | 'ready' | 'absent'

export function ChatScreen() {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const [link, setLink] = useState<Link>('connecting')
  const [lines, setLines] = useState<Line[]>([])
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<{ kind: 'error'; text: string }>()
  const [round, setRound] = useState(0)
  const [spore, setSpore] = useState<SporeInfo | null>()
  const end = useRef<HTMLLIElement>(null)
  const enabling = useAction(words, () => setRound((value) => value + 1))

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is the retry button's way to connect again
  useEffect(() => {
    let ready = false
    const stream = new EventSource(`/spores/${WEB}/stream`)
    stream.addEventListener('ready', () => {
      ready = true
      setLink('ready')
    })
    stream.addEventListener('reply', (message) => {
      try {
        const reply = JSON.parse((message as MessageEvent<string>).data) as { text: string; at: string }
        setLines((old) => [
          ...old,
          { id: `bot-${old.length}`, from: 'bot', text: reply.text, at: new Date(reply.at) },
        ])
      } catch {}
    })
    stream.addEventListener('error', () => {
      // Before the first `ready` the spore is not there (404/503); after, the browser reconnects.
      if (!ready) {
        setLink('absent')
        stream.close()
      }
    })
    return () => stream.close()
  }, [round])

  // biome-ignore lint/correctness/useExhaustiveDependencies: looked up once the stream is known to be absent
  useEffect(() => {
    if (link !== 'absent' || !can('admin.plugins')) return
    api<{ spores: SporeInfo[] }>('/spores').then(
      (answer) => setSpore(answer.spores.find((one) => one.name === WEB) ?? null),
      () => setSpore(null),
    )
  }, [link])

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new line scrolls the conversation to its end
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' })
  }, [lines])

  const send = async (event: FormEvent) => {
    event.preventDefault()
    const said = text.trim()
    if (said === '') return
    setProblem(undefined)
    try {
      await request(`/spores/${WEB}/messages`, { body: { text: said } })
      setLines((old) => [...old, { id: `me-${old.length}`, from: 'me', text: said, at: new Date() }])
      setText('')
    } catch (failure) {
      setProblem({ kind: 'error', text: describe(failure, words) })
    }
  }

  if (link === 'absent') {
    const canEnable = spore && !spore.enabled && can('admin.enable')
    return (
      <>
        <h1>{t('chat.title')}</h1>
        <Notice notice={enabling.notice} />
        <Empty
          title={t('chat.absent.title')}
          action={
            canEnable ? (
              <button
                type="button"
                className="primary"
                disabled={enabling.busy !== undefined}
                onClick={() =>
                  enabling.run(
                    'enable',
                    () => api(`/spores/${WEB}/enable`, { method: 'POST' }),
                    t('chat.absent.enabled'),
                  )
                }
              >
                {t('chat.absent.enable')}
              </button>
            ) : (
              <button type="button" onClick={() => setRound((value) => value + 1)}>
                {t('action.retry')}
              </button>
            )
          }
        >
          {spore === undefined || spore === null
            ? t(can('admin.plugins') ? 'chat.absent.notInstalled' : 'chat.absent.askOperator')
            : spore.enabled
              ? t('chat.absent.notLive', { reason: spore.reason ?? '' })
              : t(canEnable ? 'chat.absent.disabled' : 'chat.absent.askOperator')}
        </Empty>
      </>
    )
  }

  return (
    <>
      <h1>{t('chat.title')}</h1>
      <section className="chat card" aria-label={t('chat.title')}>
        <ol className="chat-lines" aria-live="polite" aria-label={t('chat.conversation')}>
          {lines.length === 0 ? (
            <li className="chat-empty">{link === 'ready' ? t('chat.empty') : t('chat.connecting')}</li>
          ) : null}
          {lines.map((line) => (
            <li key={line.id} className={`bubble bubble-${line.from}`}>
              <span className="bubble-who">{t(line.from === 'me' ? 'chat.you' : 'chat.bot')}</span>
              <span className="bubble-text">{line.text}</span>
              <time dateTime={line.at.toISOString()}>{line.at.toLocaleTimeString(words.locale)}</time>
            </li>
          ))}
          <li ref={end} className="chat-end" aria-hidden="true" />
        </ol>
        <Notice notice={problem} />
        <form className="chat-form" onSubmit={send}>
          <label className="sr-only" htmlFor="chat-text">
            {t('chat.message')}
          </label>
          <input
            id="chat-text"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={t('chat.placeholder')}
            autoComplete="off"
            disabled={link !== 'ready'}
          />
          <button type="submit" className="primary" disabled={link !== 'ready' || text.trim() === ''}>
            {t('action.send')}
          </button>
        </form>
      </section>
    </>
  )
}
