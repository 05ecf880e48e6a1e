// "Connect Discord": the token, checked with Discord by the bot before anything is stored, then
// stored as a secret and the channel enabled, through the API route the command line's connect
// shares its function with. The answer is said in words: who Discord says the bot is, or why not.
import { type FormEvent, useState } from 'react'
import { api } from '../api.ts'
import { useWords } from '../words.ts'
import { Notice, Section } from './bits.tsx'
import { describe } from './load.ts'

export function ConnectDiscord({ after }: { readonly after: () => void }) {
  const words = useWords()
  const { t } = words
  const [token, setToken] = useState('')
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>()
  const connect = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setNotice(undefined)
    try {
      const done = await api<{ who: string }>('/connect/discord', { method: 'POST', body: { secret: token } })
      setNotice({ kind: 'ok', text: t('connect.done', { who: done.who }) })
      setToken('')
      after()
    } catch (problem) {
      setNotice({ kind: 'error', text: describe(problem, words) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Section title={t('connect.title')} hint={t('connect.hint')}>
      <form className="connect" onSubmit={connect}>
        <label className="stack">
          {t('connect.token')}
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            value={token}
            onChange={(event) => setToken(event.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={busy || token.trim() === ''}>
          {t('connect.button')}
        </button>
      </form>
      <Notice notice={notice} />
    </Section>
  )
}
