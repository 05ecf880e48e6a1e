// The page's frame: who is signed in, the words in their language, the screens their roles allow,
// the theme, and the language switch.
import { type ReactNode, useEffect, useState } from 'react'
import { api, keepCsrf, request } from './api.ts'
import { openLive } from './live.ts'
import { Empty } from './parts/bits.tsx'
import { labelCells } from './parts/cell-labels.ts'
import { describe } from './parts/load.ts'
import { SCREENS, type ScreenId, screenFromHash } from './screens/index.tsx'
import { type Session, SessionContext } from './session.ts'
import { loadWords, type Words, WordsContext } from './words.ts'

type Theme = 'light' | 'dark'
const THEME_KEY = 'mycelo.theme'

function initialTheme(): Theme {
  const kept = localStorage.getItem(THEME_KEY)
  if (kept === 'light' || kept === 'dark') return kept
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

export function App() {
  const [session, setSession] = useState<Session>()
  const [words, setWords] = useState<Words>()
  const [failure, setFailure] = useState<string>()
  const [screen, setScreen] = useState<ScreenId>(screenFromHash(location.hash))
  const [theme, setTheme] = useState<Theme>(initialTheme)

  useEffect(() => {
    const follow = () => setScreen(screenFromHash(location.hash))
    addEventListener('hashchange', follow)
    return () => removeEventListener('hashchange', follow)
  }, [])

  useEffect(() => {
    document.documentElement.dataset.theme = theme
  }, [theme])

  useEffect(() => {
    ;(async () => {
      const found = await api<Session>('/session')
      keepCsrf(found.csrfToken)
      const loaded = await loadWords(found.locale)
      document.documentElement.lang = loaded.locale
      setSession(found)
      setWords(loaded)
      if (found.allowed.includes('admin.plugins')) openLive()
    })().catch((problem: unknown) => {
      // Before the words arrive there is no catalogue to word this in; English says how to go on.
      setFailure(String(problem instanceof Error && problem.message ? problem.message : problem))
    })
  }, [])

  if (failure !== undefined) {
    return (
      <main className="boot-failure" role="alert">
        <h1>Mycelo</h1>
        <p>{failure}</p>
        <p>
          <a href="/login">Sign in again</a>
        </p>
      </main>
    )
  }
  if (!session || !words) return <p className="loading">…</p>

  const switchTheme = () => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark'
    localStorage.setItem(THEME_KEY, next)
    setTheme(next)
  }
  const switchLocale = async (locale: string) => {
    try {
      // Kept for this person when their roles allow /lang; otherwise only this page changes.
      if (session.allowed.includes('admin.lang')) {
        await api('/me/locale', { method: 'PUT', body: { locale } })
      }
      const loaded = await loadWords(locale)
      document.documentElement.lang = loaded.locale
      setWords(loaded)
      setSession({ ...session, locale: loaded.locale })
    } catch (problem) {
      alert(describe(problem, words))
    }
  }
  const signOut = async () => {
    await request('/api/v1/session/logout', { method: 'POST' }).catch(() => undefined)
    location.assign('/login')
  }

  const visible = SCREENS.filter((entry) => entry.allowed(session.allowed))
  const current = SCREENS.find((entry) => entry.id === screen) ?? SCREENS[0]!
  const { t } = words
  let body: ReactNode
  if (!current.allowed(session.allowed)) {
    body = (
      <Empty title={t('screen.notAllowed.title')}>
        {t('screen.notAllowed.text', { screen: t(`nav.${current.id}`) })}
      </Empty>
    )
  } else {
    const Screen = current.component
    // Keyed by language: a switch fetches again, so what the bot words (reasons) reads in it too.
    body = <Screen key={words.locale} />
  }

  return (
    <SessionContext.Provider value={session}>
      <WordsContext.Provider value={words}>
        <div className="shell">
          <header className="top">
            <a className="brand" href="#/overview">
              <span className="brand-mark" aria-hidden="true" />
              Mycelo
            </a>
            <nav aria-label={t('nav.label')}>
              <ul>
                {visible.map((entry) => (
                  <li key={entry.id}>
                    <a href={`#/${entry.id}`} aria-current={entry.id === current.id ? 'page' : undefined}>
                      {t(`nav.${entry.id}`)}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="top-tools">
              <label className="sr-only" htmlFor="locale">
                {t('locale.label')}
              </label>
              <select id="locale" value={words.locale} onChange={(event) => switchLocale(event.target.value)}>
                {words.locales.map((locale) => (
                  <option key={locale} value={locale}>
                    {t(`locale.name.${locale}`)}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="ghost"
                onClick={switchTheme}
                aria-pressed={theme === 'dark'}
                aria-label={t('theme.dark')}
                title={t('theme.dark')}
              >
                {theme === 'dark' ? '☾' : '☀'}
              </button>
              <button type="button" className="ghost" onClick={signOut}>
                {t('action.signOut')}
              </button>
            </div>
          </header>
          <main className="content" ref={labelCells}>
            {body}
          </main>
        </div>
      </WordsContext.Provider>
    </SessionContext.Provider>
  )
}
