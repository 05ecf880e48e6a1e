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
