// A bot whose germination is refused (a requires cycle) still serves its page: the operator signs
// in through the printed link, reads why on the Spores screen, and switches spores from there.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { type CoreWith, startCoreWith } from '../support/boot-core.ts'
import { STEP_MS } from './flow.ts'
import { launchBrowser } from './launch.ts'

const rhiza = (name: string, requires: string) => ({
  'spore.yaml': `kind: rhiza\nname: ${name}\nseptum: "^1.0"\nrequires:\n  - rhiza: ${requires}\n`,
  'src/index.ts': `export default { create: () => ({ api: {}, async start() {}, async stop() {},
    async health() { return { state: 'healthy', checkedAt: new Date() } } }) }\n`,
})

let core: CoreWith
let browser: Browser
let page: Page
const problems: string[] = []

beforeAll(async () => {
  core = await startCoreWith({ spores: { alpha: rhiza('alpha', 'beta'), beta: rhiza('beta', 'alpha') } })
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(STEP_MS)
  page.on('pageerror', (error) => problems.push(error.message))
})
afterAll(async () => {
  await browser?.close()
  await core?.stop()
})

describe('the page of a bot whose germination was refused', () => {
  test('opens through the printed link and shows each spore with the reason', async () => {
    expect(core.running.refused).toContain('alpha')
    await page.goto(core.running.http!.loginLink!)
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    await page.goto(`${core.running.http!.url}/#/spores`)
    await page.getByRole('heading', { level: 1, name: 'Spores' }).waitFor()
    const alpha = page.getByRole('row', { name: /alpha/ }).first()
    await alpha.getByText('dormant').waitFor()
    await alpha.getByText('germination was refused', { exact: false }).waitFor()
  })

  test('switches a spore off from there', async () => {
    await page.getByRole('button', { name: 'Disable beta' }).click()
    await page.getByText('beta is disabled.').waitFor()
    expect(core.running.plugins.installOf('beta')?.enabled).toBe(false)
    expect(problems).toEqual([])
  })
})
