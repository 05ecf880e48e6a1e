import { afterAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser } from './launch.ts'

let browser: Browser | undefined
afterAll(() => browser?.close())

test("a headless Chromium starts offline and enforces a page's Content-Security-Policy", async () => {
  browser = await launchBrowser()
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () =>
      new Response('<p id="p">before</p><script>document.getElementById("p").textContent = "ran"</script>', {
        headers: { 'content-type': 'text/html', 'content-security-policy': "script-src 'self'" },
      }),
  })
  try {
    const page = await browser.newPage()
    await page.goto(server.url.href)
    // The inline script is refused by the policy, exactly as in a person's browser.
    expect(await page.textContent('#p')).toBe('before')
  } finally {
    await server.stop(true)
  }
})

test('two browser contexts keep their cookies apart, for navigations and fetch() alike', async () => {
  browser ??= await launchBrowser()
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) =>
      new Response(`cookie=${request.headers.get('cookie')}`, {
        headers: request.url.endsWith('/set')
          ? { 'set-cookie': 'who=first; Path=/; HttpOnly; SameSite=Strict' }
          : {},
      }),
  })
  try {
    const first = await browser.newContext()
    await (await first.newPage()).goto(`${server.url.href}set`)
    const second = await (await browser.newContext()).newPage()
    await second.goto(server.url.href)
    expect(await second.textContent('body')).toBe('cookie=null')
    const fetched = await second.evaluate(() =>
      fetch('/fetched', { method: 'POST', credentials: 'same-origin' }).then((answer) => answer.text()),
    )
    expect(fetched).toBe('cookie=null')
  } finally {
    await server.stop(true)
  }
})
