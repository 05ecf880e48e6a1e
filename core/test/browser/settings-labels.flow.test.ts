// The page's settings form reads as chat's /admin.form does: each field's label and help from the
// spore's catalogue in the reader's language, and a field with a default not marked required.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { LABELLED_SPORE } from '../support/labelled-spore.ts'
import { type Flow, type Person, startFlow } from './flow.ts'

let flow: Flow
let owner: Person
beforeAll(async () => {
  flow = await startFlow({ spores: { forecast: LABELLED_SPORE } })
  owner = await flow.person()
  await owner.page.goto(flow.bot.loginLink)
  await owner.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
}, 60_000)
afterAll(() => flow?.stop())

/** The form's labels by field, as the page shows them (a required field's label ends with *). */
async function labels(settingsOf: string): Promise<Record<string, string>> {
  const { page } = owner
  await page.getByRole('button', { name: settingsOf }).click()
  const form = page.getByRole('region', { name: settingsOf })
  await form.locator('label[for="root_defaultCity"]').waitFor()
  const shown: Record<string, string> = {}
  for (const key of ['defaultCity', 'apiKey', 'units'])
    shown[key] = ((await form.locator(`label[for="root_${key}"]`).textContent()) ?? '').trim()
  return shown
}

test('labels and help from the catalogue, in English then in French; a default is not required', async () => {
  const { page, visit } = owner
  await visit('spores', 'Spores')
  expect(await labels('Settings of forecast')).toEqual({
    defaultCity: 'Default city',
    apiKey: 'Service key*',
    units: 'units*',
  })
  const form = page.getByRole('region', { name: 'Settings of forecast' })
  await form.getByText('The city /forecast uses when none is named').waitFor()
  await form.getByText('The key the weather service gave you').waitFor()
  await form.getByText('Plain words, not a key').waitFor()
  expect(await form.getByLabel('Default city', { exact: true }).inputValue()).toBe('Nice')

  // Closed, the language switched, and opened again: the form is read anew, in French.
  await page.getByRole('button', { name: 'Settings of forecast' }).click()
  await form.waitFor({ state: 'detached' })
  await page.getByLabel('Language').selectOption('fr')
  await page.getByRole('navigation').getByRole('link', { name: 'Règles', exact: true }).waitFor()
  expect(await labels('Réglages de forecast')).toEqual({
    defaultCity: 'Ville par défaut',
    apiKey: 'Clé du service*',
    units: 'units*',
  })
  const french = page.getByRole('region', { name: 'Réglages de forecast' })
  await french.getByText('La ville que /forecast prend quand aucune n’est nommée').waitFor()
  await french.getByText('La clé que le service météo vous a donnée').waitFor()
  expect(owner.problems).toEqual([])
}, 60_000)
