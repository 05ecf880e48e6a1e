import { existsSync } from 'node:fs'
import { type Browser, chromium as playwright } from 'playwright-core'

// Flags that would hide what a person's browser enforces (CSP, same-origin), so the page is not
// tested under them; the rest keep a closed network quiet.
const WEAKENING = new Set([
  '--disable-web-security',
  '--allow-running-insecure-content',
  // In one process, a second context's fetch() carries the first context's cookies: two people
  // signed in side by side would be one.
  '--single-process',
])
const QUIET = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]
const INSTALLED = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

/**
 * A headless Chromium for the page's browser tests: `MYCELO_CHROMIUM` or an installed Chromium when
 * one is present, else the binary `@sparticuz/chromium` ships inside its npm package, so the
 * README's test command needs nothing beyond Node and npm.
 */
export async function launchBrowser(): Promise<Browser> {
  const installed = [process.env.MYCELO_CHROMIUM, ...INSTALLED].find(
    (path): path is string => path !== undefined && path !== '' && existsSync(path),
  )
  if (installed !== undefined) {
    return playwright.launch({
      executablePath: installed,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', ...QUIET],
    })
  }
  const { default: packaged } = await import('@sparticuz/chromium')
  return playwright.launch({
    executablePath: await packaged.executablePath(),
    headless: true,
    args: [...packaged.args.filter((flag) => !WEAKENING.has(flag)), ...QUIET],
  })
}
