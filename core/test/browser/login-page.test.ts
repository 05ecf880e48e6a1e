// The sign-in page as a person meets it: at a phone's width, in English and French, light and dark,
// drawn with the admin page's own stylesheet (pictures in docs/screenshots/ with
// MYCELO_SCREENSHOTS=docs, else a scratch folder).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Flow, startFlow } from './flow.ts'

const SHOTS =
  process.env.MYCELO_SCREENSHOTS === 'docs'
    ? join(import.meta.dir, '..', '..', '..', 'docs', 'screenshots')
    : join(tmpdir(), `mycelo-login-${process.pid}`)

let flow: Flow
beforeAll(async () => {
  flow = await startFlow()
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(() => flow?.stop())

/** What the page looks like, read in the browser (a string, as this file is not typed for the DOM). */
const LOOK = `(() => {
  const card = document.querySelector('.card')
  const button = document.querySelector('button[type="submit"]')
  return {
    background: getComputedStyle(document.body).backgroundColor,
    theme: document.documentElement.dataset.theme,
    cardRadius: card ? getComputedStyle(card).borderTopLeftRadius : '',
    buttonBackground: button ? getComputedStyle(button).backgroundColor : '',
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }
})()`

const CASES = [
  {
    locale: 'en',
    scheme: 'light',
    heading: 'Sign in to Mycelo',
    button: 'Sign in',
    background: 'rgb(246, 245, 241)',
  },
  {
    locale: 'en',
    scheme: 'dark',
    heading: 'Sign in to Mycelo',
    button: 'Sign in',
    background: 'rgb(20, 23, 26)',
  },
  {
    locale: 'fr',
    scheme: 'light',
    heading: 'Connexion à Mycelo',
    button: 'Se connecter',
    background: 'rgb(246, 245, 241)',
  },
  {
    locale: 'fr',
    scheme: 'dark',
    heading: 'Connexion à Mycelo',
    button: 'Se connecter',
    background: 'rgb(20, 23, 26)',
  },
] as const

describe('the sign-in page', () => {
  for (const shown of CASES) {
    test(`is drawn in the page's own style at 390 px: ${shown.locale}, ${shown.scheme}`, async () => {
      const context = await flow.browser.newContext({
        viewport: { width: 390, height: 760 },
        locale: shown.locale,
        colorScheme: shown.scheme,
      })
      try {
        const page = await context.newPage()
        const problems: string[] = []
        page.on('pageerror', (error) => problems.push(error.message))
        page.on('console', (message) => {
          // The refused code below is a 401 the browser reports; anything else is a fault.
          if (message.type() === 'error' && !message.text().includes('401')) problems.push(message.text())
        })
        await page.goto(`${flow.bot.url}/login`)
        await page.getByRole('heading', { level: 1, name: shown.heading }).waitFor()
        // The stylesheet is the admin page's: its theme variables, its card, its primary button.
        const look = await page.evaluate(LOOK)
        expect(look).toEqual({
          background: shown.background,
          theme: shown.scheme,
          cardRadius: '10px',
          buttonBackground: shown.scheme === 'light' ? 'rgb(47, 111, 78)' : 'rgb(95, 191, 138)',
          overflow: 0,
        })
        await page.getByRole('button', { name: shown.button }).waitFor()
        // A wrong code is answered in the reader's language, inside the card.
        await page.getByRole('textbox').fill('WRONGCODE1')
        await page.getByRole('button', { name: shown.button }).click()
        const said = page.getByRole('status')
        await said.getByText(shown.locale === 'fr' ? /Ce lien ou ce code/ : /This link or code/).waitFor()
        await page.screenshot({
          path: join(SHOTS, `login-${shown.locale}-${shown.scheme}.png`),
          fullPage: true,
        })
        expect(problems).toEqual([])
      } finally {
        await context.close()
      }
    })
  }
})
