// Every screen of the admin page at a phone's width (390 px), in English and French, light and dark,
// in a real Chromium against a furnished bot: nothing wider than the screen — no horizontal scroll
// of the document, and no element drawn past its right or left edge (a table or the requires graph
// must fit the card, not be cut off or scrolled sideways). Pictures of each go to
// docs/screenshots/phone/ with MYCELO_SCREENSHOTS=docs, else a scratch folder.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { STEP_MS } from './flow.ts'
import { type FurnishedBot, startFurnishedBot } from './furnished.ts'
import { launchBrowser } from './launch.ts'

const SHOTS =
  process.env.MYCELO_SCREENSHOTS === 'docs'
    ? join(import.meta.dir, '..', '..', '..', 'docs', 'screenshots', 'phone')
    : join(tmpdir(), `mycelo-phone-${process.pid}`)

const WIDTH = 390
/** Every case is measured; two are photographed, so each screen is pictured in each language and theme. */
const PICTURED = new Set(['en-light', 'fr-dark'])

/** Each screen's heading in both languages, and what a person opens on it before looking. */
const SCREENS: readonly {
  readonly id: string
  readonly en: string
  readonly fr: string
  open?(page: Page, locale: 'en' | 'fr'): Promise<void>
}[] = [
  { id: 'overview', en: 'Overview', fr: 'Vue d’ensemble' },
  {
    id: 'spores',
    en: 'Spores',
    fr: 'Spores',
    // The settings form drawn from its schema, beside the requires graph.
    async open(page, locale) {
      const name = locale === 'fr' ? 'Réglages de discord' : 'Settings of discord'
      await page.getByRole('button', { name }).click()
      await page.getByRole('region', { name }).waitFor()
      await page.locator('svg.graph, [role="img"]').first().waitFor()
      if (locale === 'fr') {
        // What a spore is, and what its settings lack, in the reader's language; no validator's text.
        await page.getByText('Discord comme canal — salons de serveur').first().waitFor()
        await page
          .getByText(/la configuration est incomplète\s:\saccount\s:\sObligatoire/)
          .first()
          .waitFor()
        expect(await page.locator('main').textContent()).not.toMatch(
          /Invalid input|expected string|spore\.description/,
        )
      }
    },
  },
  {
    id: 'install',
    en: 'Install',
    fr: 'Installer',
    async open(page, locale) {
      const name = locale === 'fr' ? 'Ce que propose Home sporangium' : 'What Home sporangium offers'
      await page.getByRole('button', { name }).click()
      await page.getByRole('region', { name }).getByText('probe').first().waitFor()
    },
  },
  {
    id: 'people',
    en: 'People and roles',
    fr: 'Personnes et rôles',
    async open(page, locale) {
      await page
        .getByRole('button', { name: locale === 'fr' ? 'Modifier moderator' : 'Edit moderator' })
        .click()
    },
  },
  { id: 'rules', en: 'Rules', fr: 'Règles' },
  {
    id: 'chat',
    en: 'Chat',
    fr: 'Discussion',
    // A conversation, so the bubbles are measured too.
    async open(page, locale) {
      const input = page.getByLabel(locale === 'fr' ? 'Votre message' : 'Your message')
      await input.and(page.locator(':enabled')).waitFor()
      await input.fill('/help tonight')
      await input.press('Enter')
      await page.locator('.bubble-bot').first().waitFor()
    },
  },
  {
    id: 'logs',
    en: 'Logs and audit',
    fr: 'Journaux et audit',
    // A reload writes lines to the live tail while the screen is open.
    async open(page) {
      await bot.client.send('/api/v1/spores/help/reload', { session: bot.owner, method: 'POST' })
      await page.locator('table.logs tbody tr').first().waitFor()
    },
  },
  { id: 'access', en: 'Access', fr: 'Accès' },
]

/**
 * What is wider than the screen, read in the browser (a string, as this file is not typed for the
 * DOM): the document's scroll width, and each visible element whose box passes an edge.
 */
const OVERFLOW = `(() => {
  const width = document.documentElement.clientWidth
  const past = []
  for (const element of document.querySelectorAll('body *')) {
    const box = element.getBoundingClientRect()
    if (box.width === 0 || box.height === 0) continue
    const style = getComputedStyle(element)
    if (style.visibility === 'hidden' || style.clip === 'rect(0px, 0px, 0px, 0px)') continue
    if (box.right > width + 0.5 || box.left < -0.5) {
      const name = element.tagName.toLowerCase() + (element.className && typeof element.className === 'string' ? '.' + element.className.trim().split(/\\s+/).join('.') : '')
      past.push(name + ' [' + Math.round(box.left) + '..' + Math.round(box.right) + '] ' + (element.textContent || '').trim().slice(0, 40))
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, clientWidth: width, past: past.slice(0, 12) }
})()`

interface Overflow {
  readonly scrollWidth: number
  readonly clientWidth: number
  readonly past: readonly string[]
}

let bot: FurnishedBot
let browser: Browser

beforeAll(async () => {
  bot = await startFurnishedBot('phone')
  browser = await launchBrowser()
  mkdirSync(SHOTS, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await bot?.stop()
})

/** Nothing on the screen still loading (the page's CSP refuses playwright's waitForFunction). */
async function settled(page: Page): Promise<void> {
  const busy = page.locator('[aria-busy="true"]')
  for (let waited = 0; (await busy.count()) > 0; waited += 50) {
    if (waited > STEP_MS)
      throw new Error(`still loading after ${STEP_MS} ms: ${await busy.first().textContent()}`)
    await Bun.sleep(50)
  }
}

/** A full-page picture for the docs in the pictured cases; a secret shown once is masked. */
async function picture(page: Page, name: string): Promise<void> {
  if (!PICTURED.has(name.split('-').slice(-2).join('-'))) return
  await page.screenshot({
    path: join(SHOTS, `${name}.png`),
    fullPage: true,
    mask: [page.locator('.secret-value')],
    // A picture of a long page takes a while on a busy machine; it is no assertion.
    timeout: 30_000,
  })
}

async function expectFits(page: Page): Promise<void> {
  const seen = (await page.evaluate(OVERFLOW)) as Overflow
  expect(seen.clientWidth).toBe(WIDTH)
  expect(seen.past).toEqual([])
  expect(seen.scrollWidth).toBeLessThanOrEqual(seen.clientWidth)
}

for (const locale of ['en', 'fr'] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    describe(`at ${WIDTH} px, ${locale}, ${scheme}`, () => {
      let context: BrowserContext
      let page: Page
      const problems: string[] = []

      beforeAll(async () => {
        // The owner's language is theirs, kept by the bot; the theme follows the system's.
        const chosen = await bot.client.send('/api/v1/me/locale', {
          session: bot.owner,
          method: 'PUT',
          body: { locale },
        })
        expect(chosen.status).toBe(200)
        context = await browser.newContext({
          viewport: { width: WIDTH, height: 844 },
          locale,
          colorScheme: scheme,
        })
        page = await context.newPage()
        page.setDefaultTimeout(STEP_MS)
        page.on('pageerror', (error) => problems.push(error.message))
      })
      afterAll(() => context?.close())

      test('the sign-in page', async () => {
        await page.goto(`${bot.url}/login`)
        await page
          .getByRole('heading', {
            level: 1,
            name: locale === 'fr' ? 'Connexion à Mycelo' : 'Sign in to Mycelo',
          })
          .waitFor()
        await expectFits(page)
        await picture(page, `login-${locale}-${scheme}`)
        // Signed in from here on, through a link as the owner would follow it.
        await page.goto(bot.linkFor('owner'))
        await page.getByRole('heading', { level: 1, name: SCREENS[0]![locale] }).waitFor()
      })

      for (const screen of SCREENS) {
        test(screen.id, async () => {
          await page.goto(`${bot.url}/#/${screen.id}`)
          await page.getByRole('heading', { level: 1, name: screen[locale] }).waitFor()
          expect(await page.locator('html').getAttribute('data-theme')).toBe(scheme)
          await screen.open?.(page, locale)
          // Whatever loads after the heading (lists, the graph) has arrived before measuring.
          await settled(page)
          await expectFits(page)
          await picture(page, `${screen.id}-${locale}-${scheme}`)
          expect(problems).toEqual([])
        })
      }
    })
  }
}
