// What the browser flow tests share: a bot on loopback with its page, a headless Chromium, and a
// browser context per person, signed in the way that person would be — the owner through the link
// printed at start, anyone else through the code the bot gives them in chat.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startWebBot, type WebBot } from '../http/web.ts'
import type { TestCoreOptions } from '../support/runtime.ts'
import { launchBrowser } from './launch.ts'

/** Long enough for a slow shared machine, short enough that a missing element fails by its locator. */
export const STEP_MS = 10_000

export interface Flow {
  readonly bot: WebBot
  readonly browser: Browser
  /** A fresh browser context (its own cookies) with a page that reports what the page threw. */
  person(): Promise<Person>
  stop(): Promise<void>
}

export interface Person {
  readonly context: BrowserContext
  readonly page: Page
  /** Everything the page threw or logged as an error, CSP refusals included. */
  readonly problems: string[]
  /** Opens a screen by its hash and waits for its heading. */
  visit(screen: string, heading: string): Promise<void>
}

export async function startFlow(options: Partial<TestCoreOptions> & { http?: string } = {}): Promise<Flow> {
  const bot = await startWebBot(options)
  let browser: Browser
  try {
    browser = await launchBrowser()
  } catch (error) {
    await bot.stop()
    throw error
  }
  return {
    bot,
    browser,
    async person() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const page = await context.newPage()
      page.setDefaultTimeout(STEP_MS)
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(error.message))
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text())
      })
      return {
        context,
        page,
        problems,
        async visit(screen, heading) {
          await page.goto(`${bot.url}/#/${screen}`)
          await page.getByRole('heading', { level: 1, name: heading }).waitFor()
        },
      }
    },
    async stop() {
      await browser.close()
      await bot.stop()
    },
  }
}

/** The code `/web` answers in chat, as the person reads it. */
export function codeIn(reply: string | undefined): string {
  const code = /: ([A-Z0-9]{10}) /.exec(reply ?? '')?.[1]
  if (code === undefined) throw new Error(`no sign-in code in the reply: ${reply}`)
  return code
}
