import { Hono } from 'hono'
import { shippedPath } from '../boot/shipped.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { HttpEnv } from './env.ts'

const STYLESHEET = shippedPath('core/http/page/styles.css')

/**
 * The sign-in page: it reads the one-time token from the URL's fragment (which never reaches a
 * server log or a Referer) or a code the person types, and posts it. The script is a file of its
 * own, as the CSP allows no inline script or style. The admin page proper replaces what follows sign-in.
 */
const page = (t: (key: string) => string, locale: string) => `<!doctype html>
<html lang="${escapeHtml(locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(t('title'))}</title><link rel="stylesheet" href="/login.css">
<script src="/login.js"></script></head>
<body class="login">
<main class="login-main">
<p class="brand"><span class="brand-mark" aria-hidden="true"></span>Mycelo</p>
<section class="card login-card">
<h1>${escapeHtml(t('heading'))}</h1>
<p class="hint">${escapeHtml(t('hint'))}</p>
<form id="login" class="login-form">
<label class="stack" for="code">${escapeHtml(t('code'))}
<input id="code" name="code" autocomplete="one-time-code" autofocus></label>
<button type="submit" class="primary">${escapeHtml(t('submit'))}</button>
</form>
<p id="message" class="login-message" role="status"></p>
</section>
</main>
</body>
</html>
`

// Runs in the head, before the body is drawn, so the theme the admin page keeps is there at once.
const SCRIPT = `'use strict'
{
  const kept = localStorage.getItem('mycelo.theme')
  const dark = kept === 'dark' || (kept !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches)
  document.documentElement.dataset.theme = dark ? 'dark' : 'light'
}
async function signIn(ticket) {
  const answer = await fetch('/api/v1/session/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ticket }),
    credentials: 'same-origin',
  })
  const body = await answer.json().catch(() => ({}))
  if (answer.ok) { location.replace('/'); return }
  const message = document.getElementById('message')
  message.textContent = body.error || answer.statusText
  message.classList.add('bad')
}
// A link opened while this page is already open changes only the hash: read it then too.
function fromLink() {
  const ticket = location.hash.slice(1)
  if (ticket) { history.replaceState(null, '', '/login'); signIn(ticket) }
}
window.addEventListener('hashchange', fromLink)
document.addEventListener('DOMContentLoaded', () => {
  fromLink()
  document.getElementById('login').addEventListener('submit', (event) => {
    event.preventDefault()
    signIn(document.getElementById('code').value)
  })
})
`

export function loginPageRoutes(runtime: CoreRuntime): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>()
  app.get('/login', (c) => {
    const locale = c.get('locale')
    const t = (key: string) => runtime.translator.render({ domain: 'core', key: `http.login.${key}` }, locale)
    return c.html(page(t, locale))
  })
  app.get('/login.js', (c) => c.body(SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }))
  // The admin page's own stylesheet: the sign-in page is drawn with the same variables and parts.
  app.get('/login.css', async (c) =>
    c.body(await Bun.file(STYLESHEET).text(), 200, { 'Content-Type': 'text/css; charset=utf-8' }),
  )
  return app
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
