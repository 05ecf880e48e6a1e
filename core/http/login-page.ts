import { Hono } from 'hono'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import type { HttpEnv } from './env.ts'

/**
 * The sign-in page: it reads the one-time token from the URL's fragment (which never reaches a
 * server log or a Referer) or a code the person types, and posts it. The script is a file of its
 * own, as the CSP allows no inline script. The admin page proper replaces what follows sign-in.
 */
const page = (t: (key: string) => string, locale: string) => `<!doctype html>
<html lang="${escapeHtml(locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mycelo</title><script src="/login.js" defer></script></head>
<body>
<main>
<h1>${escapeHtml(t('heading'))}</h1>
<form id="login">
<label for="code">${escapeHtml(t('code'))}</label>
<input id="code" name="code" autocomplete="one-time-code" autofocus>
<button type="submit">${escapeHtml(t('submit'))}</button>
</form>
<p id="message" role="status"></p>
</main>
</body>
</html>
`

const SCRIPT = `'use strict'
async function signIn(ticket) {
  const answer = await fetch('/api/v1/session/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ticket }),
    credentials: 'same-origin',
  })
  const body = await answer.json().catch(() => ({}))
  if (answer.ok) { location.replace('/'); return }
  document.getElementById('message').textContent = body.error || answer.statusText
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
  return app
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
